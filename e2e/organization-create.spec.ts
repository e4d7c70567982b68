// The create-organization wizard in the browser against the running platform: name rules, a declined card then a
// good one on the same billing account, and the landing in the new organization with a token scoped to it.
import { recordAccessTokens } from './access-tokens';
import { asRole, expect, test } from './fixtures';
import { FRESH_PASSWORD, fillCardForm, followMailLink, registerThroughConsole, signInAgain } from './fresh-account';
import { NAME_TAKEN_MESSAGE, RESUME_MESSAGE } from '../src/machines/create-organization/create-organization.machine';

test.describe('create an organization', () => {
  test('a new user creates an organization: name rules, a declined card, then a good one', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const tokens = recordAccessTokens(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'POST' && url.pathname.startsWith('/api/')) calls.push(url.pathname.replace(/\/$/, ''));
    });
    const stamp = Date.now();
    const email = `wizard-${stamp}@example.com`;
    await registerThroughConsole(page, '/organization/create', email, 'Wanda');
    // A new account is verified first: the console keeps unverified users on /verify.
    await followMailLink(page, email, /verify-email/);
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await page.goto('/organization/create');
    await expect(page.getByRole('heading', { name: 'Create an organization' })).toBeVisible();

    const name = page.getByRole('textbox', { name: /^Organization name/ });
    const create = page.getByRole('button', { name: 'Create', exact: true });
    await expect(create).toBeDisabled();
    await name.fill('ab');
    await expect(page.getByText('Must be at least 3 characters')).toBeVisible();
    await expect(create).toBeDisabled();
    await name.fill('Bad name!');
    await expect(page.getByText('Organization name must match A-z 0-9 -_')).toBeVisible();
    await expect(create).toBeDisabled();
    const organizationName = `Wizard Org ${stamp}`;
    await name.fill(organizationName);
    await expect(create).toBeEnabled();
    await create.click();

    await expect(page.getByRole('form', { name: 'Card' })).toBeVisible();
    // Stripe's script is never loaded in card mock mode.
    expect(await page.locator('script[src*="stripe"]').count()).toBe(0);
    await fillCardForm(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Add card and create organization' }).click();
    await expect(page.getByText('Your card was declined.').first()).toBeVisible();
    // Nothing typed is lost.
    await expect(page.getByRole('form', { name: 'Card' }).getByLabel(/^City/)).toHaveValue('Berlin');

    await page.getByRole('form', { name: 'Card' }).getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Add card and create organization' }).click();

    await page.waitForURL((url) => url.pathname === '/organization');
    await expect(page.getByText('Organization created successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Organization Settings' })).toBeVisible();
    await expect(page.getByText(`${organizationName} Team`)).toBeVisible();
    await expect.poll(() => typeof tokens.at(-1)?.claims.organization_id).toBe('number');

    // One billing account and one setup intent: the declined card was retried on the same ones.
    expect(calls.filter((path) => path === '/api/billing')).toHaveLength(1);
    expect(calls.filter((path) => path === '/api/billing/payment-methods/setup')).toHaveLength(1);
    expect(calls.filter((path) => path === '/api/billing/payment-methods/attach')).toHaveLength(1);
    expect(calls.filter((path) => path === '/api/organizations')).toHaveLength(1);
    await context.close();
  });
});

test.describe('leaving the wizard and coming back', () => {
  test('resumes at the card step on the same billing account', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const billingPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.replace(/\/$/, '') === '/api/billing') billingPosts.push(request.url());
    });
    const stamp = Date.now();
    const email = `resume-${stamp}@example.com`;
    await registerThroughConsole(page, '/organization/create', email, 'Rita');
    await followMailLink(page, email, /verify-email/);
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();

    await page.goto('/organization/create');
    const organizationName = `Resume Org ${stamp}`;
    await page.getByRole('textbox', { name: /^Organization name/ }).fill(organizationName);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page.getByRole('form', { name: 'Card' })).toBeVisible();

    // Away and back: the wizard picks up the billing account it created instead of asking for the name again.
    await page.goto('/projects');
    await page.goto('/organization/create');
    await expect(page.getByText(`Add a card to the billing account of ${organizationName}.`)).toBeVisible();
    await fillCardForm(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Add card and create organization' }).click();
    await page.waitForURL((url) => url.pathname === '/organization');
    await expect(page.getByText(`${organizationName} Team`)).toBeVisible();
    expect(billingPosts).toHaveLength(1);
    await context.close();
  });
});

test.describe('a wizard abandoned after its billing account', () => {
  // Two sign-ups' worth of pages on a shared machine.
  test.describe.configure({ timeout: 120_000 });
  test('resumes in a second browser with the same name: offered, not refused, no second billing account', async ({ browser, baseURL }) => {
    const stamp = Date.now();
    const email = `abandon-${stamp}@example.com`;
    const organizationName = `Abandoned Org ${stamp}`;
    const first = await browser.newContext({ baseURL });
    const page = await first.newPage();
    await registerThroughConsole(page, '/organization/create', email, 'Abe');
    await followMailLink(page, email, /verify-email/);
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await page.goto('/organization/create');
    await page.getByRole('textbox', { name: /^Organization name/ }).fill(organizationName);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page.getByRole('form', { name: 'Card' })).toBeVisible();
    // The browser is closed at the card step: the billing account exists, the organization does not.
    await first.close();

    const second = await browser.newContext({ baseURL });
    const other = await second.newPage();
    const billingPosts: string[] = [];
    other.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.replace(/\/$/, '') === '/api/billing') billingPosts.push(request.url());
    });
    expect(await signInAgain(other, email, FRESH_PASSWORD)).toBe(true);
    await other.goto('/organization/create');
    // The unfinished organization is offered, with the date the platform removes it.
    const offer = other.getByRole('region', { name: 'Unfinished organizations' });
    await expect(offer.getByRole('button', { name: `Continue with ${organizationName}` })).toBeVisible();
    await expect(offer.getByText(/kept until \d{1,2} \w{3} \d{4}/)).toBeVisible();

    // Typing the same name resumes it instead of calling it taken.
    await other.getByRole('textbox', { name: /^Organization name/ }).fill(organizationName);
    await expect(other.getByText(RESUME_MESSAGE)).toBeVisible();
    await expect(other.getByText(NAME_TAKEN_MESSAGE)).toHaveCount(0);
    await other.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(other.getByText(`Add a card to the billing account of ${organizationName}.`)).toBeVisible();
    await fillCardForm(other, '4242 4242 4242 4242');
    await other.getByRole('button', { name: 'Add card and create organization' }).click();
    await other.waitForURL((url) => url.pathname === '/organization');
    await expect(other.getByText(`${organizationName} Team`)).toBeVisible();
    expect(billingPosts).toHaveLength(0);
    await second.close();
  });
});

test.describe('an owner of an organization', () => {
  test.use(asRole('owner'));

  test('sees that they cannot create another one, and the switch button', async ({ page }) => {
    await page.goto('/organization/create');
    await expect(page.getByText('You already own an organization and cannot create more.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Switch to Acme' })).toBeVisible();
  });
});

