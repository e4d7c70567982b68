// The explorer's address holds the whole view: the metric step and query type survive a reload; a drag across the
// chart sets the shared time range (absolute, in the address, every query run over it) and Zoom out widens it.
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';

const rangeOf = (address: string) => {
  const params = new URL(address).searchParams;
  return { from: Number(params.get('from')), to: Number(params.get('to')) };
};

test.describe('the qryn explorer address and range as the owner', () => {
  test.use(asRole('owner'));

  test('step and query type survive a reload; a drag on the chart sets the range; Zoom out doubles it', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project } = await freshQrynProject(session, 'Explorer range');
    await page.goto(`/${project.slug}/stack/qryn/view?language=metrics&query=${encodeURIComponent('vector(3)')}`);
    const results = page.getByRole('region', { name: 'Metric results' });
    await expect(results.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible({ timeout: 30_000 });

    await results.getByRole('combobox', { name: 'Step' }).selectOption('60');
    await expect.poll(() => new URL(page.url()).searchParams.get('step')).toBe('60');
    await page.reload();
    await expect(results.getByRole('combobox', { name: 'Step' })).toHaveValue('60');
    await expect(results.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible({ timeout: 30_000 });

    await results.getByRole('combobox', { name: 'Query type' }).selectOption('instant');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('instant');
    await page.reload();
    await expect(results.getByRole('combobox', { name: 'Query type' })).toHaveValue('instant');
    await expect(results.getByRole('table', { name: 'Results' })).toContainText('3');
    await results.getByRole('combobox', { name: 'Query type' }).selectOption('range');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBeNull();

    // A drag over the middle half of the chart's plot: about the middle half of the last hour, in the address.
    const chart = results.getByRole('figure', { name: 'Chart of 1 series' });
    await expect(chart.locator('.u-over')).toBeVisible();
    await chart.locator('.u-over').scrollIntoViewIfNeeded();
    const box = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('to') ?? '').toMatch(/^\d+$/);
    const dragged = rangeOf(page.url());
    expect(dragged.to - dragged.from).toBeGreaterThan(20 * 60_000);
    expect(dragged.to - dragged.from).toBeLessThan(40 * 60_000);
    await expect(page.getByRole('combobox', { name: 'Time range' })).toHaveValue('absolute');
    await expect(chart).toBeVisible();

    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => rangeOf(page.url()).to - rangeOf(page.url()).from).toBe(2 * (dragged.to - dragged.from));
    // Back returns to the dragged range.
    await page.goBack();
    await expect.poll(() => rangeOf(page.url())).toEqual(dragged);
  });

  test('a typed range: now-based times kept as typed, checked at the field, evaluated at each run', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project } = await freshQrynProject(session, 'Explorer typed range');
    await page.goto(`/${project.slug}/stack/qryn/view?language=metrics&query=${encodeURIComponent('vector(3)')}`);
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible({ timeout: 30_000 });

    await page.getByRole('combobox', { name: 'Time range' }).selectOption('absolute');
    const form = page.getByRole('form', { name: 'Custom time range' });
    // The fields start from the range in force, as Grafana writes it.
    await expect(form.getByRole('textbox', { name: 'From' })).toHaveValue('now-1h');
    await expect(form.getByRole('textbox', { name: 'To' })).toHaveValue('now');
    await form.getByRole('textbox', { name: 'From' }).fill('now-3q');
    await form.getByRole('button', { name: 'Apply range' }).click();
    await expect(form.getByText('Enter a time as YYYY-MM-DD HH:mm:ss (UTC), or relative to now such as now-3h or now-1d/d.')).toBeVisible();
    expect(new URL(page.url()).searchParams.get('from')).toBeNull();

    await form.getByRole('textbox', { name: 'From' }).fill('now-1d/d');
    await form.getByRole('textbox', { name: 'To' }).fill('now-1d/d');
    await form.getByRole('button', { name: 'Apply range' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('now-1d/d');
    expect(new URL(page.url()).searchParams.get('to')).toBe('now-1d/d');
    // Yesterday in UTC, whole.
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await expect(form.getByText(`Now ${day} 00:00:00 to ${day} 23:59:59 UTC`)).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('form', { name: 'Custom time range' }).getByRole('textbox', { name: 'From' })).toHaveValue('now-1d/d');
    await expect(page.getByRole('figure', { name: 'Chart of 1 series' })).toBeVisible({ timeout: 30_000 });
  });

  test('a time zone chosen in the header shows the table and log times in it, and survives a reload', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project, url, basic } = await freshQrynProject(session, 'Explorer zone');
    const app = `zone-${Date.now().toString(36)}`;
    const at = Date.now() - 30_000;
    const pushed = await page.request.post(`${url}/loki/api/v1/push`, {
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      data: { streams: [{ stream: { app }, values: [[String(BigInt(at) * 1_000_000n), 'zone line']] }] },
    });
    expect(pushed.status(), await pushed.text()).toBe(204);
    // Tokyo is UTC+09:00 all year.
    const tokyo = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');

    await page.goto(`/${project.slug}/stack/qryn/view?language=metrics&type=instant&view=table&query=${encodeURIComponent('vector(3)')}`);
    const cell = page.getByRole('table', { name: 'Results' }).locator('tbody td').nth(1);
    await expect(cell).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, { timeout: 30_000 });
    const utc = Date.parse(`${await cell.textContent()}Z`.replace(' ', 'T'));
    await page.getByRole('combobox', { name: 'Time zone' }).selectOption('Asia/Tokyo');
    await expect.poll(() => new URL(page.url()).searchParams.get('tz')).toBe('Asia/Tokyo');
    await expect(cell).toHaveText(tokyo(utc).slice(0, 19));

    await page.goto(`/${project.slug}/stack/qryn/view?tz=Asia%2FTokyo&language=logs&query=${encodeURIComponent(`{app="${app}"}`)}`);
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo');
    await expect(page.getByRole('button', { name: `Open the line of ${tokyo(at)} (unknown)` })).toBeVisible({ timeout: 30_000 });
  });
});
