import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../packages/logql/engine/evaluate';
import type { LogQuerier } from '../../packages/logql/storage/querier';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import { JSON_FLAT_COLUMN } from '../../server/products/qryn/storage/flat-json';
import { createLogsQuerier } from '../../server/products/qryn/query/logs-querier';
import { createInstanceSchema, instanceDdl, upgradeInstanceSchema } from '../../server/products/qryn/storage/schema';
import { storageClient, type StorageClient } from '../../server/products/qryn/storage/storage-client';
import { startStorageServer, type StorageServer } from '../../server/products/qryn/storage/storage-server';

// The `| json` counting pushdown: which lines log_samples' stored flag calls flat (flat JSON objects whose keys occur
// once), and that the answer is the same with the flag, without it (a database made before it: the same test per
// row in the query) and with no pushdown at all (every line through the engine's own json parser).

const S = 1_000_000_000n;
const START = BigInt(Date.UTC(2026, 10, 20, 0, 0, 0)) * 1_000_000n;
const LINES: [string, boolean][] = [
  ['{"level":"info","msg":"ok","n":12}', true],
  ['{"level":"warn","ok":true,"x":null,"f":-1.5e3}', true],
  ['{"msg":"braces { and [ in a string","level":"error"}', true],
  ['{"level":"info","level":"error"}', false],
  ['{"a":1,"level":"debug","a":2}', false],
  ['{"level":"info","nested":{"level":"x"}}', false],
  ['{"level":"info","list":[1,2]}', false],
  ['{"level":"in\\"fo"}', false],
  ['{"level":"info",}', false],
  ['{"level":"info"', false],
  ['level=info msg=logfmt', false],
  ['{"msg":"no level"}', true],
];

const isValidJson = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

let dir: string;
let server: StorageServer;
let client: StorageClient;

async function load(database: string, older = false) {
  // An older database: made by its DDL alone (createInstanceSchema marks it as upgraded), then without the column.
  if (older) {
    for (const statement of instanceDdl(database)) await client.command(statement);
    await client.command(`ALTER TABLE ${database}.log_samples DROP COLUMN ${JSON_FLAT_COLUMN}`);
  } else await createInstanceSchema(client, database);
  const batch = new Batch();
  // app="x": every line; app="y": the valid JSON ones (a malformed line fails a metric query with a pipeline error).
  const fps = [batch.addSeries('logs', { app: 'x', pod: 'a' }), batch.addSeries('logs', { app: 'x', pod: 'b' })];
  const valid = batch.addSeries('logs', { app: 'y' });
  for (let k = 0; k < 240; k++) {
    const line = LINES[k % LINES.length][0];
    batch.addLog(fps[k % 2], START + BigInt(k) * 7n * S + 11n, line);
    if (isValidJson(line)) batch.addLog(valid, START + BigInt(k) * 7n * S + 11n, line);
  }
  await createWriter(() => Date.now()).write({ id: database, database, client, fingerprintLimit: 0 }, batch);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'logql-json-pushdown-'));
  server = await startStorageServer({ dir });
  client = storageClient({ url: server.url, user: server.user, password: server.password });
  await load('qryn_flag');
  await load('qryn_noflag', true);
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const answer = (querier: LogQuerier, query: string) =>
  runQuery(querier, { query, startNs: START + 60n * S, endNs: START + 30n * 60n * S, stepNs: 60n * S, instant: false, limit: 100, direction: 'backward' }).then(
    (r) => r.data,
    (e: Error) => ({ error: e.message }),
  );

describe('| json counting pushdown', () => {
  it('stores per line whether it is flat JSON with no repeated key', async () => {
    const rows = await client.query<{ line: string; flat: number }>(`SELECT DISTINCT line, ${JSON_FLAT_COLUMN} AS flat FROM qryn_flag.log_samples`);
    const flags = new Map(rows.map((r) => [r.line, Number(r.flat) === 1]));
    for (const [line, flat] of LINES) expect([line, flags.get(line)]).toEqual([line, flat]);
  });

  it('answers as the engine does, with the stored flag and without it', async () => {
    const queries = ['sum by (level) (count_over_time({app="y"} | json [1m]))', 'sum by (level, a) (count_over_time({app="y"} | json [5m]))', 'sum by (level) (bytes_over_time({app="y"} | json [2m]))'];
    for (const query of [...queries, ...queries.map((q) => q.replace('app="y"', 'app="x"'))]) {
      const withFlag = createLogsQuerier(client, 'qryn_flag');
      const expected = await answer({ selectLogs: withFlag.selectLogs }, query);
      const answers = [await answer(withFlag, query), await answer(createLogsQuerier(client, 'qryn_noflag'), query)];
      if (query.includes('app="y"')) {
        expect((expected as { result: unknown[] }).result.length, query).toBeGreaterThan(2);
        for (const a of answers) expect(a, query).toEqual(expected);
      } else {
        // Which failing series is named depends on the order the lines are read in.
        for (const a of [expected, ...answers]) expect(a, query).toMatchObject({ error: expect.stringContaining("pipeline error: 'JSONParserErr'") });
      }
    }
  });

  it('adds the column to a database made before it', async () => {
    await upgradeInstanceSchema(client, 'qryn_noflag');
    const rows = await client.query<{ n: string }>(`SELECT toString(sum(${JSON_FLAT_COLUMN})) AS n FROM qryn_noflag.log_samples`);
    expect(Number(rows[0].n)).toBe(LINES.filter(([, f]) => f).length * 20 * 2);
    const query = 'sum by (level) (count_over_time({app="y"} | json [1m]))';
    const querier = createLogsQuerier(client, 'qryn_noflag');
    expect(await answer(querier, query)).toEqual(await answer({ selectLogs: querier.selectLogs }, query));
  });
});
