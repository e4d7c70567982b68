// Keyboard-only walks of the flagship flows (Tab, Shift+Tab, Enter, Space, arrows and typing; no mouse): signing in
// on the real login page, creating an organization with a card, switching to an organization and back, enabling a
// product. On each screen every control is reachable by Tab with its focus visible and Tab leaves again
// (e2e/keyboard.ts); comboboxes take the first match on Enter. The products' own flows (a cluster's lifecycle, a
// Loggen run, a Hepic role change) are walked in e2e/keyboard-products.spec.ts.
import { enterAcme, freshAcmeProject } from './acme-session';
import { recordAccessTokens } from './access-tokens';
import { demoAccounts, DEMO_PASSWORD } from './demo-accounts';
import { asRole, expect, test } from './fixtures';
import { followMailLink, registerThroughConsole } from './fresh-account';
import { expectTabCycle, focused, pressUntil, tabTo, typeInto } from './keyboard';
import { expectSignedInAs } from './login-page';

test.describe('keyboard only', () => {
  test.describe.configure({ timeout: 90_000 });

  test('signs in on the login page', async ({ page, baseURL }) => {
    await page.goto(`${baseURL}/`);
    await page.waitForURL((url) => url.pathname.includes('/realms/'));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectTabCycle(page);
    await typeInto(page, 'Email', demoAccounts.member.email);
    await typeInto(page, 'Password', DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.includes('/realms/') && url.pathname !== '/auth');
    await expectSignedInAs(page, demoAccounts.member);
  });

  test('creates an organization with a card', async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const email = `keys-${Date.now()}@example.com`;
    // Registration is the identity server's own page; the flow under test starts in the console.
    await registerThroughConsole(page, '/organization/create', email, 'Kira');
    await followMailLink(page, email, /verify-email/);
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await page.goto('/organization/create');
    const name = page.getByRole('textbox', { name: /^Organization name/ });
    await expect(name).toBeFocused();
    await expectTabCycle(page);

    await tabTo(page, /^input.*"Organization name/);
    const organizationName = `Keys Org ${Date.now().toString(36)}`;
    await page.keyboard.type(organizationName);
    await expect(page.getByRole('button', { name: 'Create', exact: true })).toBeEnabled();
    await page.keyboard.press('Enter'); // submits the form from its field

    const card = page.getByRole('form', { name: 'Card' });
    await expect(card).toBeVisible();
    await expectTabCycle(page);
    await typeInto(page, /"Address\*?"$/, '1 Main Street');
    await typeInto(page, 'City', 'Berlin');
    await typeInto(page, 'Postal code', '10115');
    // The country combobox: typing filters, Enter takes the first match.
    await tabTo(page, /combobox|"Country/);
    await page.keyboard.type('Germ');
    await page.keyboard.press('Enter');
    await expect(card.getByRole('combobox', { name: 'Country' })).toHaveValue('Germany');
    await typeInto(page, 'Phone', '+49 30 1234567');
    await typeInto(page, 'Card number', '4242 4242 4242 4242');
    await typeInto(page, 'Expiry', '12/34');
    await typeInto(page, 'CVC', '123');
    await pressUntil(page, (f) => f.label.startsWith('input[checkbox]'));
    await page.keyboard.press('Space');
    await expect(card.getByRole('checkbox')).toBeChecked();
    await tabTo(page, 'Add card and create organization');
    await page.keyboard.press('Enter');

    await page.waitForURL((url) => url.pathname === '/organization');
    await expect(page.getByText('Organization created successfully')).toBeVisible();
    await expect(page.getByText(`${organizationName} Team`)).toBeVisible();
    await context.close();
  });

  test.describe('as the owner', () => {
    test.use(asRole('owner'));

    test('switches to Acme and back to the personal account', async ({ page }) => {
      const tokens = recordAccessTokens(page);
      const organizationId = () => tokens.at(-1)?.claims.organization_id ?? null;
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await page.goto('/projects');
      await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
      await expect.poll(() => tokens.length).toBeGreaterThan(0);
      expect(organizationId()).toBeNull();
      const organizations = (await (await page.request.get('/api/users/organizations', { headers: { Authorization: `Bearer ${tokens.at(-1)!.raw}` } })).json()) as Array<{ id: number; name: string }>;
      const acme = organizations.find((organization) => organization.name === 'Acme');
      expect(acme).toBeDefined();
      await expectTabCycle(page);

      // The sidebar's account links; the current one carries a check mark.
      await tabTo(page, /^a "Acme"$/);
      await page.keyboard.press('Enter');
      await expect.poll(organizationId).toBe(acme!.id);
      await expect(sidebar.getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
      await expect(page.getByText('Personal Sandbox')).toHaveCount(0);
      await expectTabCycle(page);

      await tabTo(page, /^a "Personal account"$/);
      await page.keyboard.press('Enter');
      await expect.poll(organizationId).toBeNull();
      await expect(sidebar.getByRole('link', { name: /^Personal account/ })).toHaveAttribute('aria-current', 'true');
      await page.goto('/projects');
      await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
    });

    test('enables a product in a fresh project', async ({ page }) => {
      const session = await enterAcme(page, 'keyboard');
      await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: /^Acme/ })).toHaveAttribute('aria-current', 'true');
      const { slug } = await freshAcmeProject(session, 'keyboard');

      await page.goto(`/${slug}/stack/add`);
      await expect(page.getByRole('heading', { level: 1, name: 'Add a product' })).toBeVisible();
      await expectTabCycle(page);
      await tabTo(page, 'Add Observability to this project');
      await page.keyboard.press('Enter');
      const configure = page.getByRole('form', { name: 'Configure Observability' });
      await expect(configure).toBeVisible();
      // A dialog keeps focus inside it: a full Tab cycle stays in the dialog and reaches each of its controls.
      await expectTabCycle(page, page.getByRole('dialog'));
      await tabTo(page, /^select.*Storage/);
      await page.keyboard.press('ArrowDown');
      await expect(configure.getByLabel(/^Storage/)).not.toHaveValue('');
      await tabTo(page, /^select.*Writer region/);
      await page.keyboard.press('ArrowDown');
      await expect(configure.getByLabel(/^Writer region/)).not.toHaveValue('');
      await tabTo(page, 'Enable Observability');
      await page.keyboard.press('Enter');
      const info = page.getByRole('dialog', { name: 'Observability is enabled' });
      await expect(info.getByText('API KEY', { exact: true })).toBeVisible();
      await tabTo(page, 'Open Observability');
      expect((await focused(page))?.label).toContain('Open Observability');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/${slug}/stack/qryn$`));
    });
  });
});
