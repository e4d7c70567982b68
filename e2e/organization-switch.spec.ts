// The owner switches to the organization "Acme" and back to the personal account: the token's organization_id
// changes (read from the token endpoint's responses) and so does the console around it.
import { recordAccessTokens } from './access-tokens';
import { asRole, expect, test } from './fixtures';

test.describe('organization switch', () => {
  test.use(asRole('owner'));

  test('the owner switches to Acme and back to personal', async ({ page }) => {
    const tokens = recordAccessTokens(page);
    const latest = () => tokens[tokens.length - 1];
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await page.goto('/projects');
    await expect.poll(() => tokens.length).toBeGreaterThan(0);
    await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
    expect(latest().claims.organization_id ?? null).toBeNull();
    const personalSidebar = await sidebar.innerText();

    // Acme's id as the API reports it to the signed-in owner, with the console's own token.
    const response = await page.request.get('/api/users/organizations', {
      headers: { Authorization: `Bearer ${latest().raw}` },
    });
    expect(response.ok()).toBe(true);
    const organizations = (await response.json()) as Array<{ id: number; name: string }>;
    const acme = organizations.find((organization) => organization.name === 'Acme');
    expect(acme).toBeDefined();

    await sidebar.getByRole('link', { name: 'Acme' }).click();
    await expect.poll(() => latest().claims.organization_id).toBe(acme!.id);
    await page.goto('/projects');
    await expect(page.getByText('Acme Production').first()).toBeVisible();
    await expect(page.getByText('Personal Sandbox')).toHaveCount(0);
    const organizationSidebar = await sidebar.innerText();
    expect(organizationSidebar).not.toBe(personalSidebar);

    await sidebar.getByRole('link', { name: /Personal account/ }).click();
    await expect.poll(() => latest().claims.organization_id ?? null).toBeNull();
    await page.goto('/projects');
    await expect(page.getByText('Personal Sandbox').first()).toBeVisible();
    await expect(page.getByText('Acme Production')).toHaveCount(0);
    expect(await sidebar.innerText()).toBe(personalSidebar);
  });
});
