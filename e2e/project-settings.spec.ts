// Project Settings in the browser against the running platform: the owner adds dev@ to a project through the Add a
// member card and deletes the project by typing its slug (then /projects no longer lists it and the API answers 404);
// read-write and read-only members see the Delete project card disabled with the spec's wording and the API refuses.
import { ErrorText } from '../contract/errors';
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';

test.describe('the owner', () => {
  test.use(asRole('owner'));

  test('adds dev@ to a project and deletes the project by typing its slug', async ({ page }) => {
    test.setTimeout(90_000);
    const acme = await enterAcme(page);
    const name = `Doomed ${Date.now()}`;
    const created = (await (await acme.api('POST', 'projects/', { name })).json()) as { id: number; slug: string };
    const slug = created.slug as string;
    const projectId = created.id as number;

    await page.goto(`/${slug}/settings`);
    await expect(page.getByRole('heading', { name: 'Project Settings' })).toBeVisible();
    const team = page.getByRole('list', { name: 'Project Team' });
    await expect(team.getByText('demo@example.com')).toBeVisible();
    await expect(team.getByText('dev@example.com')).toHaveCount(0);

    const add = page.getByRole('form', { name: 'Add a member' });
    await add.getByRole('button', { name: 'Add member' }).click();
    await expect(add.getByText('Please select one user.')).toBeVisible();
    await add.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: /dev@example\.com/ }).click();
    await add.getByRole('button', { name: 'Add member' }).click();
    await expect(page.getByText('The user has been added to the project.')).toBeVisible();
    await expect(team.getByText('dev@example.com')).toBeVisible();

    await page.getByRole('button', { name: 'Delete project' }).click();
    await expect(page).toHaveURL(new RegExp(`action=delete-project-${projectId}`));
    const dialog = page.getByRole('alertdialog');
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    await expect(confirm).toBeDisabled();
    const input = dialog.getByLabel(`Type ${slug} to confirm`);
    await input.fill('not-the-slug');
    await expect(dialog.getByText('Project name does not match')).toBeVisible();
    await expect(confirm).toBeDisabled();
    await input.fill(slug);
    await expect(dialog.getByText('Project name does not match')).toHaveCount(0);
    await confirm.click();

    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByText(`The project ${name} has been deleted.`)).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(slug) })).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('Acme Production').first()).toBeVisible();
    await expect(page.locator(`a[href="/${slug}/stack"]`)).toHaveCount(0);
    expect((await acme.api('GET', `projects/users?project_id=${projectId}`)).status()).toBe(404);
    expect((await acme.api('DELETE', `projects?project_id=${projectId}`)).status()).toBe(404);
  });
});

for (const role of ['member', 'viewer'] as const) {
  test.describe(`a ${role === 'member' ? 'read-write' : 'read-only'} member`, () => {
    test.use(asRole(role));

    // A read-write member sees the screen with the card disabled; a read-only member is kept out of project Settings
    // by address too (its link is hidden from them): the read-only message instead of the screen.
    const sees = role === 'member' ? 'sees the Delete project card disabled with the reason' : 'sees the read-only message instead of project Settings';
    test(`${sees}, and the API refuses`, async ({ page }) => {
      test.setTimeout(60_000);
      const acme = await enterAcme(page);
      const projects = (await (await acme.api('GET', 'projects/')).json()) as Array<{ id: number; name: string; slug: string }>;
      const production = projects.find((project) => project.name === 'Acme Production')!;
      const showsTheirView = async () => {
        if (role === 'member') {
          await expect(page.getByRole('heading', { name: 'Project Settings' })).toBeVisible();
          await expect(page.getByRole('button', { name: 'Delete project' })).toBeDisabled();
          await expect(page.getByText(ErrorText.projectDeletionOwnerOnly)).toBeVisible();
        } else {
          await expect(page.getByRole('alert').filter({ hasText: 'Read-only access' })).toContainText('changing the project settings is not available to you');
          await expect(page.getByRole('button', { name: 'Delete project' })).toHaveCount(0);
        }
      };
      await page.goto(`/${production.slug}/settings`);
      await showsTheirView();
      // The action parameter does not open the modal for them either.
      await page.goto(`/${production.slug}/settings?action=delete-project-${production.id}`);
      await showsTheirView();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      const refused = await acme.api('DELETE', `projects?project_id=${production.id}`);
      expect(refused.status()).toBe(403);
      // A read-only member is refused for being read-only before ownership is even considered.
      const why = role === 'member' ? ErrorText.projectDeletionOwnerOnly : 'Your access to this organization is read-only. Ask an owner for read-write access.';
      expect(((await refused.json()) as { description: string }).description).toBe(why);
    });
  });
}
