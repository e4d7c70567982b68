// @vitest-environment jsdom
// qryn's pages as pure parts: the compatibility table exactly as the spec lists it, every Examples subpage the spec
// names (and no other) filled with the instance's values, the Overview's two stats layouts, titles and price tiers.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentMonth, type QrynMetricsData } from '../../src/services/qryn';
import {
  COMPATIBILITY,
  compatibilityCsv,
  compatibilityJson,
  findIngestionPage,
  INGESTION_GROUPS,
  ingestionBlocks,
} from '../../src/views/stack/qryn/ingestion-pages';
import { qrynPageTitle } from '../../src/views/stack/qryn/qryn-area';
import { CACHE_WARNING, DRILLDOWN_WARNING, tierText } from '../../src/views/stack/qryn/qryn-config-view';
import { hasStoredData, IngestionStats } from '../../src/views/stack/qryn/qryn-overview-view';

afterEach(cleanup);

describe('Data Ingestion', () => {
  it('the compatibility table is the spec list: all three, logs and metrics, logs only', () => {
    const support = (r: (typeof COMPATIBILITY)[number]) => [r.logs, r.metrics, r.traces].map(Number).join('');
    expect(Object.fromEntries(COMPATIBILITY.map((r) => [r.solution, support(r)]))).toEqual({
      'Grafana Agent': '111',
      OpenTelemetry: '111',
      'Vector/Datadog': '110',
      'Telegraf/Influx': '110',
      'Logstash/Elastic': '110',
      paStash: '110',
      Promtail: '100',
      'Promtail Lambda': '100',
      Fluentd: '100',
      'Cloudflare Logpush': '100',
    });
    expect(compatibilityCsv().split('\n').slice(0, 2)).toEqual(['Solution,Logs,Metrics,Traces', 'Grafana Agent,yes,yes,yes']);
    expect(JSON.parse(compatibilityJson())).toHaveLength(10);
  });

  it('the Examples subpages are exactly the spec methods, in its order', () => {
    expect(INGESTION_GROUPS.map((g) => [g.label, g.pages.map((p) => p.id)])).toEqual([
      ['Logs', ['logs--logql', 'logs--elastic', 'logs--influx', 'logs--curl', 'logs--dev']],
      ['Metrics', ['metrics--prometheus', 'metrics--influx', 'metrics--snmp']],
      ['Telemetry', ['telemetry--grafana-agent', 'telemetry--zipkin', 'telemetry--curl']],
      ['Agents', ['agents--grafana', 'agents--vector']],
    ]);
    expect(findIngestionPage('logs--nothing')).toBeNull();
    expect(findIngestionPage(undefined)).toBeNull();
  });

  it('every subpage shows at least one example, filled with the instance URL, key and secret', () => {
    const input = { url: 'http://127.0.0.1:8080/qryn/0123456789abcdef', apiKey: 'qk_key', apiSecret: 'the-secret' };
    for (const group of INGESTION_GROUPS) {
      for (const page of group.pages) {
        const blocks = ingestionBlocks(page, input);
        expect(blocks.length, page.id).toBeGreaterThan(0);
        for (const block of blocks) {
          expect(block.text, `${page.id}: ${block.title}`).toContain(input.url.replace(/^http:\/\//, ''));
          expect(block.text, `${page.id}: ${block.title}`).toContain('qk_key');
          expect(block.text, `${page.id}: ${block.title}`).toContain('the-secret');
        }
      }
    }
  });
});

const metrics = (overrides: Partial<QrynMetricsData>): QrynMetricsData => ({
  bytesCount: 0,
  tracesCount: 0,
  uniqueMetricSeriesCount: 0,
  metricsAndLogsCount: 0,
  rotationPolicyTtl: 30,
  sizeLimit: null,
  dataBytes: 0,
  tracesRows: 0,
  tracesBytes: 0,
  metricsRows: 0,
  metricsBytes: 0,
  logsRows: 0,
  logsBytes: 0,
  fingerprints: 0,
  retaningDataLogs: null,
  retaningDataTraces: null,
  rotationPoint: null,
  fingerprintLimit: 0,
  fingerprintLimitReached: false,
  refusedBusy: 0,
  refusedOverLimit: 0,
  refusedSignIns: 0,
  refusedOverQuota: 0,
  sizeLimitReached: false,
  seriesPerPushLimit: 10_000,
  samplesPerSecondLimit: 50_000,
  readsRunning: 0,
  readsQueued: 0,
  readsRefused: 0,
  readsTimedOut: 0,
  readsBytesAnswered: 0,
  readsRunningLimit: 2,
  readsQueuedLimit: 16,
  ...overrides,
});

describe('Overview stats', () => {
  it('with a byte count: Ingested, Traces, Total unique fingerprints, Metrics & logs', () => {
    render(<IngestionStats metrics={metrics({ bytesCount: 2_500_000, tracesCount: 3, fingerprints: 12, metricsAndLogsCount: 4200 })} />);
    expect(screen.getByRole('group', { name: 'Ingested' }).textContent).toContain('2.5 MB');
    expect(screen.getByRole('group', { name: 'Traces' }).textContent).toContain('3');
    expect(screen.getByRole('group', { name: 'Total unique fingerprints' }).textContent).toContain('12');
    expect(screen.getByRole('group', { name: 'Metrics & logs' }).textContent).toContain('4,200');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('without: rotation point, Storage Quota Unlimited (null or 0), ingested data, fingerprints and the per-type rows', () => {
    const { rerender } = render(
      <IngestionStats metrics={metrics({ dataBytes: 4000, fingerprints: 5, logsRows: 10, logsBytes: 3000, metricsRows: 2, metricsBytes: 1000, rotationPoint: Date.UTC(2026, 10, 1) / 1000 })} />,
    );
    expect(screen.getByRole('group', { name: 'Storage Quota' }).textContent).toContain('Unlimited');
    expect(screen.getByRole('group', { name: 'Rotation Point' }).textContent).toContain('01 Nov 2026');
    expect(screen.getByRole('group', { name: 'Ingested Data' }).textContent).toContain('4 kB');
    const rows = within(screen.getByRole('table', { name: 'Ingested data by type' })).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual(['Logs103 kB75%', 'Metrics21 kB25%', 'Traces00 B0%']);
    rerender(<IngestionStats metrics={metrics({ sizeLimit: 0 })} />);
    expect(screen.getByRole('group', { name: 'Storage Quota' }).textContent).toContain('Unlimited');
    expect(screen.getByRole('group', { name: 'Rotation Point' }).textContent).toContain('No data yet');
    rerender(<IngestionStats metrics={metrics({ sizeLimit: 5e9 })} />);
    expect(screen.getByRole('group', { name: 'Storage Quota' }).textContent).toContain('5 GB');
  });

  it('what the gateway refused shows only when something was, with the limits in force', () => {
    const { rerender } = render(<IngestionStats metrics={metrics({ bytesCount: 1000 })} />);
    expect(screen.queryByText(/Refused since the platform started/)).toBeNull();
    rerender(<IngestionStats metrics={metrics({ bytesCount: 1000, refusedBusy: 3, refusedOverLimit: 2, refusedSignIns: 1200 })} />);
    const alert = screen.getByText(/Refused since the platform started/).closest('[role="alert"], [role="status"], div')!.parentElement!;
    expect(alert.textContent).toContain('3 pushes while too much');
    expect(alert.textContent).toContain('2 pushes over the limits (at most 10,000 series per push and 50,000 lines or samples per second)');
    expect(alert.textContent).toContain('1,200 sign-ins after too many failed ones');
    expect(screen.getByRole('group', { name: 'Ingested' })).toBeTruthy();
  });

  it('the first-data onboarding is for an instance without data: any stored or ingested row or byte ends it', () => {
    expect(hasStoredData(metrics({}))).toBe(false);
    expect(hasStoredData(metrics({ metricsRows: 8078 }))).toBe(true);
    expect(hasStoredData(metrics({ logsRows: 1 }))).toBe(true);
    expect(hasStoredData(metrics({ dataBytes: 10 }))).toBe(true);
    expect(hasStoredData(metrics({ bytesCount: 10 }))).toBe(true);
    expect(hasStoredData(metrics({ tracesCount: 2 }))).toBe(true);
  });

  it('the stored-bytes quota: stored of the quota in both layouts, and while it is used up that writes are refused', () => {
    const { rerender } = render(<IngestionStats metrics={metrics({ bytesCount: 1000, dataBytes: 2_500_000_000, sizeLimit: 10_000_000_000 })} />);
    expect(screen.getByRole('group', { name: 'Stored of quota' }).textContent).toContain('2.5 GB of 10 GB (25%)');
    expect(Number(screen.getByRole('progressbar', { name: 'Stored of the storage quota' }).getAttribute('value'))).toBe(2_500_000_000);
    expect(screen.queryByText(/Writes are refused/)).toBeNull();
    rerender(<IngestionStats metrics={metrics({ dataBytes: 12_000_000_000, sizeLimit: 10_000_000_000, sizeLimitReached: true, refusedOverQuota: 4 })} />);
    expect(screen.getByRole('group', { name: 'Stored of quota' }).textContent).toContain('12 GB of 10 GB (100%)');
    const refused = screen.getByText(/Writes are refused: the storage quota is used up/).closest('[role="alert"]')!;
    expect(refused.textContent).toContain('This instance stores 12 GB, its quota is 10 GB. Pushes are answered 429');
    expect(refused.textContent).toContain('reads keep working');
    expect(screen.getByText(/4 pushes over the storage quota/)).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Storage Quota' }).textContent).toContain('10 GB');
    // Without a quota nothing of it shows.
    rerender(<IngestionStats metrics={metrics({ dataBytes: 5000, sizeLimit: null })} />);
    expect(screen.queryByRole('group', { name: 'Stored of quota' })).toBeNull();
    expect(screen.queryByText(/Writes are refused/)).toBeNull();
  });

  it("the instance's queries: running and waiting of their caps, refused, timed out and the bytes answered", () => {
    render(<IngestionStats metrics={metrics({ bytesCount: 1000, readsRunning: 1, readsQueued: 3, readsRefused: 4, readsTimedOut: 5, readsBytesAnswered: 1_200_000 })} />);
    const reads = screen.getByRole('region', { name: 'Queries' });
    expect(within(reads).getByRole('group', { name: 'Running' }).textContent).toContain('1 of 2');
    expect(within(reads).getByRole('group', { name: 'Waiting' }).textContent).toContain('3 of 16');
    expect(within(reads).getByRole('group', { name: 'Refused, too many at once' }).textContent).toContain('4');
    expect(within(reads).getByRole('group', { name: 'Timed out' }).textContent).toContain('5');
    expect(within(reads).getByRole('group', { name: 'Answered' }).textContent).toContain('1.2 MB');
    expect(reads.textContent).toContain('answered 429 with Retry-After');
  });

  it('the period is the current month from the first, in seconds', () => {
    expect(currentMonth(Date.UTC(2026, 10, 23, 12, 0, 5))).toEqual({ start: Date.UTC(2026, 10, 1) / 1000, end: Date.UTC(2026, 10, 23, 12, 0, 5) / 1000 });
  });
});

describe('titles, tiers and warnings', () => {
  it('the document title follows the page', () => {
    expect(qrynPageTitle('/acme-1/stack/qryn')).toBe('Overview');
    expect(qrynPageTitle('/acme-1/stack/qryn/auth')).toBe('Auth Tokens');
    expect(qrynPageTitle('/acme-1/stack/qryn/data-ingestion/logs--curl')).toBe('Data Ingestion');
    expect(qrynPageTitle('/acme-1/stack/qryn/config')).toBe('Config');
  });

  it('retention tiers are cents per GB shown divided by 100', () => {
    expect(tierText({ startingUnit: 0, endingUnit: 100, price: 50 })).toBe('0–100 GB: $0.5 per GB');
    expect(tierText({ startingUnit: 1000, endingUnit: null, price: 250 })).toBe('1,000+ GB: $2.5 per GB');
  });

  it('the switches warn that they enable or disable the feature on the server side', () => {
    expect(CACHE_WARNING(false)).toMatch(/enables the cache on the server side/);
    expect(CACHE_WARNING(true)).toMatch(/disables it on the server side/);
    expect(DRILLDOWN_WARNING(false)).toMatch(/enables logs drilldown on the server side/);
    expect(DRILLDOWN_WARNING(true)).toMatch(/disables it on the server side/);
  });
});

describe('Overview snippets', () => {
  it('say what to use in place of a secret that was not kept: a write token, made on Auth Tokens', async () => {
    const { MemoryRouter } = await import('react-router');
    const { SecretHint } = await import('../../src/views/stack/qryn/qryn-overview-view');
    render(
      <MemoryRouter>
        <p>
          <SecretHint projectSlug="acme-1" />
        </p>
      </MemoryRouter>,
    );
    const hint = screen.getByText(/Did not keep it\?/).closest('p')!;
    expect(hint.textContent).toContain('YOUR_API_SECRET');
    expect(hint.textContent).toContain("with the write scope and put it in the secret's place");
    expect(within(hint).getByRole('link', { name: 'Create a token' }).getAttribute('href')).toBe('/acme-1/stack/qryn/auth');
  });
});
