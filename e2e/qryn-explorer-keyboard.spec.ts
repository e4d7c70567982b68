// The qryn explorer by keyboard only, and axe on it: the owner's fresh project with qryn enabled through the API; the
// View connected by typing the key:secret and Enter; every control of the explorer reachable by Tab with its focus
// visible and no trap (the editor does not keep Tab); a PromQL query typed into the editor and run with Shift+Enter;
// Tab leaves the editor again; then axe finds no serious or critical violation on the explorer with its chart.
import AxeBuilder from '@axe-core/playwright';
import { enterAcme, freshAcmeProject } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { expectFocusOn, expectTabCycle, tabTo } from './keyboard';

test.describe('keyboard only, the qryn explorer', () => {
  test.use(asRole('owner'));

  test('connects, runs a PromQL query from the editor and leaves it by Tab; axe finds nothing serious', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page, 'keyboard');
    const project = await freshAcmeProject(session, 'Explorer keys');
    const [resource] = (await (await session.api('GET', `integrations/qryn/cloud/resources?project_id=${project.id}`)).json()) as { clickhouse_cluster_id: string }[];
    const [region] = (await (await session.api('GET', 'integrations/qryn/writer-regions')).json()) as { code: string }[];
    const enabled = await session.api('POST', `integrations/qryn?project_id=${project.id}`, { cluster_id: resource!.clickhouse_cluster_id, writer_region_code: region!.code, multi_org: false });
    expect(enabled.status(), await enabled.text()).toBeLessThan(300);
    const keys = (await enabled.json()) as { api_key: string; api_secret: string };

    await page.goto(`/${project.slug}/stack/qryn/view`);
    await tabTo(page, /"Token or key:secret/);
    await page.keyboard.type(`${keys.api_key}:${keys.api_secret}`);
    await page.keyboard.press('Enter');
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
