import { IngestError } from './ingest/batch';
import { formParams, HttpError, success, type ReadRequest } from './gateway-http';
import { createReader } from './read';
import { lokiRange } from './time-params';

// The Loki calls about streams rather than lines (what Grafana's Loki datasource calls around a query): label
// names and values, and the logs drilldown's index volume.

/** The gateway's answer to the drilldown's calls while the Config page's switch is off. */
export const DRILLDOWN_OFF_MESSAGE = 'Logs drilldown is turned off for this instance: turn it on in the Config page of the console.';

export async function lokiMetadataApi(r: ReadRequest): Promise<boolean> {
  const { req, res, method, path, url } = r;
  const reader = createReader(r.storage, r.access.instance.database_name);
  const now = r.nowNs;
  if (method === 'GET' && path === '/loki/api/v1/labels') {
    const range = lokiRange(url.searchParams, now);
    success(res, await r.lookup(`${path}|${r.dayKey(range)}`, () => reader.labelNames('logs', range)));
    return true;
  }
  const lokiValues = /^\/loki\/api\/v1\/label\/([^/]+)\/values$/.exec(path);
  if (method === 'GET' && lokiValues) {
    const range = lokiRange(url.searchParams, now);
    success(res, await r.lookup(`${path}|${r.dayKey(range)}`, () => reader.labelValues('logs', decodeURIComponent(lokiValues[1]), range)));
    return true;
  }
  if ((method === 'GET' || method === 'POST') && path === '/loki/api/v1/index/volume') {
    // The logs drilldown's call: answered only while the instance's drilldown switch is on.
    if (!r.access.instance.use_drilldown) throw new HttpError(404, DRILLDOWN_OFF_MESSAGE);
    const params = await formParams(req, url);
    const query = params.get('query');
    if (!query) throw new IngestError('The query parameter is required.');
    const range = lokiRange(params, now);
    const limit = Number(params.get('limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new IngestError('The limit must be a whole number from 1 to 5000.');
    const volume = await reader.logVolume(query, range, limit);
    const at = Number(range.endNs / 1_000_000n) / 1000;
    success(res, {
      resultType: 'vector',
      result: volume.map((v) => ({ metric: v.stream, value: [at, String(v.bytes)], lines: v.lines })),
    });
    return true;
  }
  return false;
}
