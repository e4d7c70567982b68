import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMetrics } from '../../server/products/clickhouse/cluster-metrics';

// An external ClickHouse server that does not log queries has no system.query_log (18.16 creates it on the first
// logged query): its metrics are the totals without time series, not an error. Any other failure still fails.
// The server here answers like ClickHouse's HTTP interface does (status 404 with "Code: 60" for an unknown table).

describe('cluster metrics without system.query_log', () => {
  let server: Server;
  let port: number;
  let failOthers = false;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let sql = '';
      req.on('data', (chunk: Buffer) => (sql += chunk.toString()));
      req.on('end', () => {
        if (sql.includes('system.query_log')) {
          res.writeHead(404).end("Code: 60, e.displayText() = DB::Exception: Table system.query_log doesn't exist., e.what() = DB::Exception\n");
        } else if (failOthers) {
          res.writeHead(500).end('Code: 241, e.displayText() = DB::Exception: Memory limit exceeded, e.what() = DB::Exception\n');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ n: sql.includes('system.tables') ? '3' : '42' }] }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const target = () => ({ host: `127.0.0.1:${port}`, endpoint: { host: '127.0.0.1', port, user: 'u', password: 'p' }, dataDir: null, diskType: 'external' });
  const range = { start: 1_700_000_000, end: 1_700_003_600, databases: [], excludeUser: null };

  it('answers the totals and no time series', async () => {
    expect(await readMetrics([target()], range)).toEqual({ total_tables: 3, total_rows: 42, disks: [], time_series_metrics: [] });
  });

  it('still fails on other errors', async () => {
    failOthers = true;
    await expect(readMetrics([target()], range)).rejects.toThrow(/Memory limit exceeded/);
    failOthers = false;
  });
});
