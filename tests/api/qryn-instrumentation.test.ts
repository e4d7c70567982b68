import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Schema } from 'effect';
import type { ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import type { EnabledQryn } from '../support/qryn';
import { startQrynInAcme, stopQrynInAcme, type QrynInAcme } from '../support/qryn-in-acme';
import { INSTRUMENT_CLUSTER_REQUIRED_MESSAGE, INSTRUMENT_UNKNOWN_CLUSTER_MESSAGE, InstrumentedApplicationList, InstrumentResponse } from '../../contract/qryn';
import { findInstanceOfProject } from '../../server/products/qryn/instances/qryn-repository';
import { scrapeInstrumented, setInstrumented } from '../../server/products/qryn/instrumentation';
import type { StorageResolver } from '../../server/products/qryn/storage/storage-resolver';

// Instrumenting the project's ClickHouse clusters (docs/qryn.md "Instrumentation") against the real database and a
// real ClickHouse server: the calls' validation and roles; a scrape of a running server's system tables lands as
// Prometheus series that query_range reads and GET metrics counts; a cluster that is not running records its error.

describe.each(databaseTargets())('qryn instrumentation ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let viewer: string;
  let qryn: EnabledQryn;
  let productionId: number;
  let gateway: QrynInAcme['gateway'];
  let gatewayUrl: string;

  let setup: QrynInAcme | undefined;

  beforeAll(async () => {
    setup = await startQrynInAcme(target);
    ({ api, owner, qryn, productionId, gateway } = setup);
    viewer = await api.tokenFor('viewer@example.com', { organizationId: setup.acmeId });
    gatewayUrl = gateway.url;
  }, 180_000);
  afterAll(() => stopQrynInAcme(setup));

  const q = { project_id: 0 };
  const call = (method: string, path: string, token: string, body?: unknown) => api.request(method, `integrations/qryn/${path}`, { token, query: { ...q, project_id: productionId }, body });

  it('refuses a choice without clusters at the field, with the spec text; unknown clusters too; nothing changes', async () => {
    for (const body of [{}, { cluster_ids: [] }, { cluster_ids: [''] }]) {
      const answer = await call('POST', 'instrument', owner, body);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body.details)).toContain(INSTRUMENT_CLUSTER_REQUIRED_MESSAGE);
    }
    const unknown = await call('POST', 'instrument', owner, { cluster_ids: ['999999'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.cluster_ids).toEqual([INSTRUMENT_UNKNOWN_CLUSTER_MESSAGE]);
    expect((await call('POST', 'instrument', owner, 'not an object')).status).toBe(400);
    expect(Schema.decodeUnknownSync(InstrumentedApplicationList)((await call('GET', 'instrumented-applications', owner)).body)).toEqual([]);
  });

  it('bad bodies of any shape answer 400, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ cluster_ids: fc.jsonValue() })), async (body) => {
        const answer = await call('POST', 'instrument', owner, body);
        expect([400]).toContain(answer.status);
      }),
      { numRuns: 25 },
    );
  });

  it('a read-only member may list but not instrument', async () => {
    expect((await call('GET', 'instrumented-applications', viewer)).status).toBe(200);
    expect((await call('POST', 'instrument', viewer, { cluster_ids: ['1'] })).status).toBe(403);
  });

  it("instruments the project's running cluster; a scrape that cannot reach it records why", async () => {
    // An active managed cluster of the project (its servers are not started here): offered and accepted.
    const cluster = (
      await api.db.query<{ id: number }>("INSERT INTO clickhouse_clusters (project_id, name, status) VALUES ($1, 'metrics-test', 'active') RETURNING id", [productionId])
    )[0].id;
    const answer = await call('POST', 'instrument', owner, { cluster_ids: [String(cluster)] });
    expect(answer.status).toBe(200);
    expect(Schema.decodeUnknownSync(InstrumentResponse)(answer.body).applications).toMatchObject([{ cluster_id: String(cluster), name: 'metrics-test', last_scrape_at: null }]);
    const outcome = await qryn.backend.runInstrumentation();
    expect(outcome).toEqual({ scraped: 0, failed: 1 });
    const [listed] = Schema.decodeUnknownSync(InstrumentedApplicationList)((await call('GET', 'instrumented-applications', owner)).body);
    expect(listed.last_scrape_at).not.toBeNull();
    expect(listed.last_error).toBe('The cluster is not running or no longer belongs to the project.');
    await api.db.query('DELETE FROM qryn_instrumented_clusters');
    await api.db.query('DELETE FROM clickhouse_clusters WHERE id = $1', [cluster]);
  });

  it("a scrape of a running ClickHouse server lands its system tables as series that query_range reads and GET metrics counts", async () => {
    const instance = (await findInstanceOfProject(api.db, productionId))!;
    // A resolver that names the running storage server (a real clickhouse-server) as the cluster 'ch-live'.
    const server = qryn.backend.storageServer()!;
    const resolver: StorageResolver = { resources: async () => [], resolve: async (_projectId, id) => (id === 'ch-live' ? server : undefined) };
    await setInstrumented(api.db, instance.id, [{ id: 'ch-live', name: 'live' }]);
    const monthStart = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) / 1000);
    const seriesBefore = (await call('GET', `metrics?start=${monthStart}&end=${Math.floor(Date.now() / 1000) + 60}`, owner)).body.unique_metric_series_count as number;

    const outcome = await scrapeInstrumented({ db: api.db, resolver, writer: qryn.backend.writer, storageOf: (i) => qryn.backend.storageOf(i), nowMs: () => Date.now() });
    expect(outcome).toEqual({ scraped: 1, failed: 0 });
    const [listed] = Schema.decodeUnknownSync(InstrumentedApplicationList)((await call('GET', 'instrumented-applications', owner)).body);
    expect(listed).toMatchObject({ cluster_id: 'ch-live', name: 'live', last_error: null });
    expect(listed.last_scrape_samples).toBeGreaterThan(10);

    const now = Math.floor(Date.now() / 1000);
    const params = new URLSearchParams({ query: 'clickhouse_system_metrics{cluster="live",name="Query"}', start: String(now - 120), end: String(now + 60), step: '15' });
    const read = (await (await fetch(`${gatewayUrl}/api/v1/query_range?${params}`, { headers: { authorization: qryn.basic } })).json()) as { data: { result: { metric: Record<string, string>; values: [number, string][] }[] } };
    expect(read.data.result).toHaveLength(1);
    expect(read.data.result[0].metric).toMatchObject({ __name__: 'clickhouse_system_metrics', cluster: 'live', name: 'Query' });
    expect(read.data.result[0].values.length).toBeGreaterThan(0);
    const seriesAfter = (await call('GET', `metrics?start=${monthStart}&end=${Math.floor(Date.now() / 1000) + 60}`, owner)).body.unique_metric_series_count as number;
    expect(seriesAfter).toBeGreaterThanOrEqual(seriesBefore + listed.last_scrape_samples!);
    await api.db.query('DELETE FROM qryn_instrumented_clusters');
  });
});
