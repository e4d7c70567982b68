import { IngestError } from './ingest/batch';
import { formParams, success, type ReadRequest } from './gateway-http';
import { createReader } from './read';
import { parseStep, parseTime, promRange } from './time-params';

// The Prometheus HTTP API of an instance (what Grafana's Prometheus datasource calls).

const HOUR = 3600n * 1_000_000_000n;

export async function prometheusApi(r: ReadRequest): Promise<boolean> {
  const { req, res, method, path, url } = r;
  const reader = createReader(r.storage, r.access.instance.database_name);
  const now = r.nowNs;
  if ((method === 'GET' || method === 'POST') && path === '/api/v1/query_range') {
    const params = await formParams(req, url);
    const query = params.get('query');
    if (!query) throw new IngestError('The query parameter is required.');
    const start = parseTime(params.get('start') ?? undefined, now - HOUR, 'prometheus');
    const end = parseTime(params.get('end') ?? undefined, now, 'prometheus');
    success(res, { resultType: 'matrix', result: await reader.matrix(query, start, end, parseStep(params.get('step') ?? undefined)) });
    return true;
  }
  if ((method === 'GET' || method === 'POST') && path === '/api/v1/query') {
    const params = await formParams(req, url);
    const query = params.get('query');
    if (!query) throw new IngestError('The query parameter is required.');
    const time = parseTime(params.get('time') ?? undefined, now, 'prometheus');
    const matrix = await reader.matrix(query, time, time, 1_000_000_000n);
    success(res, { resultType: 'vector', result: matrix.map((m) => ({ metric: m.metric, value: m.values[0] })) });
    return true;
  }
  if ((method === 'GET' || method === 'POST') && path === '/api/v1/series') {
    const params = await formParams(req, url);
    const selectors = params.getAll('match[]');
    if (selectors.length === 0) throw new IngestError('At least one match[] selector is required.');
    const range = promRange(params, now);
    success(res, await r.lookup(`${path}|${r.dayKey(range)}|${JSON.stringify(selectors)}`, () => reader.series(selectors, range)));
    return true;
  }
  if ((method === 'GET' || method === 'POST') && path === '/api/v1/labels') {
    const params = await formParams(req, url);
    const range = promRange(params, now);
    success(res, await r.lookup(`${path}|${r.dayKey(range)}`, () => reader.labelNames('metrics', range)));
    return true;
  }
  const promValues = /^\/api\/v1\/label\/([^/]+)\/values$/.exec(path);
  if (method === 'GET' && promValues) {
    const range = promRange(url.searchParams, now);
    success(res, await r.lookup(`${path}|${r.dayKey(range)}`, () => reader.labelValues('metrics', decodeURIComponent(promValues[1]), range)));
    return true;
  }
  if (method === 'GET' && path === '/api/v1/status/buildinfo') {
    // Grafana reads the version to choose its query features.
    success(res, { version: '2.45.0', revision: 'qryn-platform', branch: 'qryn', buildUser: 'platform', buildDate: '', goVersion: '' });
    return true;
  }
  return false;
}
