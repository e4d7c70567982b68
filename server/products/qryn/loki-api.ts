import { IngestError } from './ingest/batch';
import { formParams, success, type ReadRequest } from './gateway-http';
import { createReader } from './read';
import { lokiRange, parseTime } from './time-params';

// The Loki query calls of an instance: query and query_range (loki-metadata-api.ts has the calls about streams).

const HOUR = 3600n * 1_000_000_000n;

export async function lokiApi(r: ReadRequest): Promise<boolean> {
  const { req, res, method, path, url } = r;
  const reader = createReader(r.storage, r.access.instance.database_name);
  const now = r.nowNs;
  if ((method === 'GET' || method === 'POST') && (path === '/loki/api/v1/query_range' || path === '/loki/api/v1/query')) {
    const params = await formParams(req, url);
    const query = params.get('query');
    if (!query) throw new IngestError('The query parameter is required.');
    const range = path.endsWith('query')
      ? { startNs: parseTime(params.get('time') ?? undefined, now, 'loki') - HOUR, endNs: parseTime(params.get('time') ?? undefined, now, 'loki') }
      : lokiRange(params, now);
    const limit = Number(params.get('limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new IngestError('The limit must be a whole number from 1 to 5000.');
    const direction = (params.get('direction') ?? 'backward').toLowerCase();
    if (direction !== 'backward' && direction !== 'forward') throw new IngestError('The direction must be backward or forward.');
    const result = await reader.logStreams(query, range, limit, direction);
    success(res, { resultType: 'streams', result, stats: { summary: { totalEntriesReturned: result.reduce((n, s) => n + s.values.length, 0) } } });
    return true;
  }
  return false;
}
