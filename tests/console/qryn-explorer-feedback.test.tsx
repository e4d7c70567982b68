// @vitest-environment jsdom
// What the explorer tells a person after a run, through the real shell, editor and panels against a fake fetch:
// a LogQL or TraceQL parse error is underlined in the editor at the instance's position and worded for a person
// (as PromQL's already were), and an empty metric answer says what was asked, over which range, and where to look;
// a range query's last evaluation point is the range's end.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExplorerShell, type ExplorerPanels } from '../../src/views/stack/qryn/explorer/explorer-shell';
import { LogsPanel } from '../../src/views/stack/qryn/explorer/logs/logs-panel';
import { MetricsPanel } from '../../src/views/stack/qryn/explorer/metrics-panel';
import { TracesPanel } from '../../src/views/stack/qryn/explorer/traces/traces-panel';
import { installDomStubs } from './organization/dom-stubs';

vi.hoisted(() => {
  (globalThis as { matchMedia?: unknown }).matchMedia ??= () => ({ matches: false, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} });
});
installDomStubs();
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const INSTANCE = 'http://qryn.test/qryn/0123456789abcdef';
const labels = { names: async () => ['job'], values: async () => ['app'] };
const sources = { promql: labels, logql: labels, traceql: labels };

function fakeFetch(answer: (url: URL) => Response) {
  const urls: URL[] = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input);
    urls.push(url);
    return answer(url);
  });
  return urls;
}

const panels: ExplorerPanels = {
  logs: ({ run, onQueryChange, onOpenTrace }) => (
    <LogsPanel instanceUrl={INSTANCE} auth="k:s" query={run.query} range={run.range} runId={run.id} onQueryChange={onQueryChange} onOpenTrace={onOpenTrace} onCredentialRefused={() => undefined} />
  ),
  traces: ({ run, traceId, onOpenTrace }) => (
    <TracesPanel instanceUrl={INSTANCE} auth="k:s" query={run.query} range={run.range} runId={run.id} traceId={traceId} onOpenTrace={onOpenTrace} onCredentialRefused={() => undefined} />
  ),
};

function renderShell(search: string): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/acme-1/stack/qryn/view?${search}`]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  render(wrap(<ExplorerShell target={{ url: INSTANCE, auth: 'k:s' }} sources={sources} panels={panels} onCredentialRefused={() => undefined} />));
}

const underline = () => document.querySelector<HTMLElement>('.cm-lintRange-error');

describe('parse errors of LogQL and TraceQL runs', () => {
  it('a LogQL query that ends too early: the editor marks its end, the alert says which closer is missing', async () => {
    const error = 'parse error at line 1, col 11: syntax error: unexpected $end';
    fakeFetch(() => new Response(JSON.stringify({ status: 'error', error }), { status: 400 }));
    renderShell(`language=logql&query=${encodeURIComponent('{job="app"')}`);
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    await waitFor(() => expect(alert.textContent).toContain('The query ends too early: a closing } is missing.'));
    // The instance's own text stays under the wording.
    expect(alert.textContent).toContain(`The instance said: ${error}`);
    await waitFor(() => expect(underline()?.getAttribute('title')).toBe('The query ends too early: a closing } is missing.'));
    expect(underline()!.textContent).toBe('"');
  });

  it('a TraceQL query with a stray }: the editor marks it, the alert quotes it with its column', async () => {
    const error = 'invalid TraceQL query: parse error at line 1, col 15: syntax error: unexpected }';
    fakeFetch(() => new Response(JSON.stringify({ error }), { status: 400 }));
    renderShell(`language=traceql&query=${encodeURIComponent('{ .a = "b" && }')}`);
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    await waitFor(() => expect(alert.textContent).toContain('The query has } where it cannot go (column 15).'));
    await waitFor(() => expect(underline()?.textContent).toBe('}'));
    expect(underline()!.getAttribute('title')).toBe('The query has } where it cannot go (column 15).');
  });
});

describe('metric results', () => {
  it('an empty answer names the query and range and hints where to look; the last point is the range end', async () => {
    const urls = fakeFetch(() => new Response(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } })));
    const to = 1_764_000_000_000;
    const range = { from: to - 7 * 86_400_000, to };
    const query = 'count_over_time({job="app"}[7d])';
    render(
      <MetricsPanel target={{ url: INSTANCE, auth: 'k:s' }} source="loki" query={query} range={range} runId={1} view="chart" onViewChange={() => undefined} onCredentialRefused={() => undefined} onError={() => undefined} />,
    );
    const status = await screen.findByText(/No series matched/, {}, { timeout: 5000 });
    expect(status.textContent).toContain(query);
    expect(status.textContent).toMatch(/to 2025-11-24 16:00:00 UTC\.$/);
    expect(screen.getByText(/Widen the time range, or check the label values/)).toBeTruthy();
    const asked = urls.find((u) => u.pathname.endsWith('/loki/api/v1/query_range'))!;
    const [start, end, step] = ['start', 'end', 'step'].map((k) => Number(asked.searchParams.get(k)));
    expect(step).toBe(2420);
    expect(end).toBe(to * 1e6);
    expect((end - start) % (step * 1e9)).toBe(0);
  });
});

describe('metric values on screen and in the downloads', () => {
  it('the table shows six significant digits (all of them in the title); JSON has numbers; files are named after the query', async () => {
    fakeFetch(() => new Response(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [{ metric: { job: 'app' }, values: [[1_764_000_000, '0.30000000000000004']] }] } })));
    const range = { from: 1_763_996_400_000, to: 1_764_000_000_000 };
    render(<MetricsPanel target={{ url: INSTANCE, auth: 'k:s' }} source="prometheus" query="up" range={range} runId={1} view="table" onViewChange={() => undefined} onCredentialRefused={() => undefined} onError={() => undefined} />);
    const table = await screen.findByRole('table', { name: 'Results' }, { timeout: 5000 });
    const cell = [...table.querySelectorAll('td')].find((td) => td.textContent === '0.3')!;
    expect(cell.getAttribute('title')).toBe('0.30000000000000004');
    const json = screen.getByRole('link', { name: 'Export JSON' });
    expect(json.getAttribute('download')).toBe('up__0123456789abcdef__2025-11-24T16-00-00Z.json');
    const exported = JSON.parse(decodeURIComponent(json.getAttribute('href')!.split(',').slice(1).join(','))) as { Value: unknown }[];
    expect(exported[0]!.Value).toBe(0.30000000000000004);
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('download')).toBe('up__0123456789abcdef__2025-11-24T16-00-00Z.csv');
  });
});
