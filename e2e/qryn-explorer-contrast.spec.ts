// The explorer's editor colours, measured in the browser in both themes: every option of the completion popup (not
// only the selected one) and every highlighted token of PromQL, LogQL and TraceQL against the background it is drawn
// on, by WCAG's contrast ratio of the computed colours (at least 4.5:1 for text).
import type { Page } from '@playwright/test';
import { enterAcme } from './acme-session';
import { asRole, expect, test } from './fixtures';
import { freshQrynProject } from './qryn-explorer-setup';

type Theme = 'dark' | 'light';

async function setTheme(page: Page, theme: Theme) {
  await page.evaluate((value) => {
    const root = document.documentElement;
    root.classList.toggle('dark', value === 'dark');
    root.classList.toggle('light', value === 'light');
    root.style.colorScheme = value;
  }, theme);
}

/** Each element's text colour against the first opaque background behind it, as WCAG contrast ratios. */
async function contrasts(page: Page, selector: string): Promise<{ text: string; ratio: number }[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const rgba = (value: string) => {
      const probe = document.createElement('canvas').getContext('2d')!;
      probe.fillStyle = '#000';
      probe.fillStyle = value;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      return { r: r!, g: g!, b: b!, a: a! / 255 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const background = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        const colour = rgba(getComputedStyle(node).backgroundColor);
        if (colour.a === 1) return colour;
      }
      return rgba(getComputedStyle(document.body).backgroundColor);
    };
    return elements
      .filter((element) => (element.textContent ?? '').trim() !== '')
      .map((element) => {
        const fg = luminance(rgba(getComputedStyle(element).color));
        const bg = luminance(background(element));
        return { text: element.textContent ?? '', ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05) };
      });
  });
}

const readable = (found: { text: string; ratio: number }[]) => found.filter((f) => f.ratio < 4.5).map((f) => `${f.text}: ${f.ratio.toFixed(2)}:1`);

test.describe('the explorer editor in both themes', () => {
  test.use(asRole('owner'));

  test('the completion popup and the syntax colours are readable (≥ 4.5:1) in the dark and the light theme', async ({ page }) => {
    test.setTimeout(180_000);
    const session = await enterAcme(page);
    const { project } = await freshQrynProject(session, 'Contrast');

    await page.goto(`/${project.slug}/stack/qryn/view`);
    await expect(page.getByRole('group', { name: 'Language' })).toBeVisible();

    const samples = [
      { language: 'Metrics (PromQL)', editor: 'Query (PromQL)', text: 'sum by (job) (rate(http_total{job="api", code!~"5.."}[5m])) > 1.5 # total', prefix: 'r' },
      { language: 'Logs (LogQL)', editor: 'Query (LogQL)', text: 'sum(count_over_time({app="web"} |= "error" | json | latency > 10ms [5m]))', prefix: 'c' },
      { language: 'Traces (TraceQL)', editor: 'Query (TraceQL)', text: '{ span.http.status_code >= 500 && name = "GET" && duration > 2s }', prefix: null },
    ];
    for (const sample of samples) {
      await page.getByRole('button', { name: sample.language }).click();
      const editor = page.getByRole('textbox', { name: sample.editor });
      await editor.fill(sample.text);
      // The grammar's chunk is loaded once the text is coloured.
      await expect(editor.locator('span[class]').first()).toBeVisible();
      for (const theme of ['dark', 'light'] as Theme[]) {
        await setTheme(page, theme);
        const tokens = await contrasts(page, '.cm-line span');
        expect(tokens.length, `${sample.language} has highlighted tokens`).toBeGreaterThan(3);
        expect(readable(tokens), `${sample.language} in the ${theme} theme`).toEqual([]);
      }
      if (sample.prefix) {
        await editor.click();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(sample.prefix);
        const options = page.getByRole('listbox').getByRole('option');
        await expect.poll(() => options.count()).toBeGreaterThan(1);
        for (const theme of ['dark', 'light'] as Theme[]) {
          await setTheme(page, theme);
          const found = await contrasts(page, '[role=listbox] [role=option]');
          expect(found.length).toBeGreaterThan(1);
          expect(readable(found), `the ${sample.language} completion popup in the ${theme} theme`).toEqual([]);
        }
        await page.keyboard.press('Escape');
      }
    }
  });
});
