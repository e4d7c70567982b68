// The qryn explorer by keyboard only, and axe on it: the owner's fresh project with qryn enabled through the API; the
// View read with the owner's sign-in; every control of the explorer reachable by Tab with its focus
// visible and no trap (the editor does not keep Tab); a PromQL query typed into the editor and run with Shift+Enter;
// Tab leaves the editor again; then axe finds no serious or critical violation on the explorer with its chart.
import AxeBuilder from '@axe-core/playwright';
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';
import { expectFocusOn, expectTabCycle, tabTo } from './keyboard';

test.describe('keyboard only, the qryn explorer', () => {
  test.use(asRole('owner'));

  test('opens with the sign-in, runs a PromQL query from the editor and leaves it by Tab; axe finds nothing serious', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page, 'keyboard');
    const { project } = await freshQrynProject(session, 'Explorer keys');

    await page.goto(`/${project.slug}/stack/qryn/view`);
    await expect(page.getByRole('group', { name: 'Language' })).toBeVisible();
    await expectTabCycle(page);

    // The editor: typed into, run with Shift+Enter, and Tab moves on to the next control (no trap).
    await tabTo(page, 'Query (PromQL)');
    await page.keyboard.type('vector(1)');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Enter');
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expectFocusOn(page, 'History');

    // The language switch and the label browser by keyboard: Logs, then back to Metrics.
    await tabTo(page, 'Logs (LogQL)');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Logs (LogQL)' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Metrics (PromQL)' })).toHaveAttribute('aria-pressed', 'true');
    await tabTo(page, 'Run query');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();
    await expectTabCycle(page);

    const found = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const serious = found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, serious.join('\n')).toEqual([]);
  });
});
