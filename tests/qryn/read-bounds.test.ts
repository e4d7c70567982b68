import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '../support/qryn';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, runQuery } from '../../packages/logql/engine/evaluate';
import type { LogQuerier } from '../../packages/logql/storage/querier';
import { createLogsQuerier } from '../../server/products/qryn/query/logs-querier';
import { evaluateLogql } from '../../server/products/qryn/query/logql-evaluate';
import { createMetricsQuerier } from '../../server/products/qryn/query/metrics-querier';
import { evaluatePromql } from '../../server/products/qryn/query/promql-evaluate';
import { promqlSettings } from '../../server/products/qryn/query/promql-settings';
import { readSettings } from '../../server/products/qryn/query/read-settings';
import { seriesRows } from '../../server/products/qryn/query/series-rows';
import { StorageError, storageClient, type StorageClient } from '../../server/products/qryn/storage/storage-client';
import { startStorageServer, type StorageServer } from '../../server/products/qryn/storage/storage-server';
import { NS_PER_S, loadBigLogs, loadManySeries } from '../support/big-read-data';
import { bodyText } from '../../server/products/qryn/http/answer-json';

// qryn's reads bounded while they read, on a real ClickHouse 18.16: a log query stops reading once its limit is
// met (also when a stage runs in the process), maxLinesRead and maxSamples refuse as the rows arrive, a read that
// nobody waits for is killed on the server, and ClickHouse's own bounds and the answer caps are refused naming the
// limit in the reference's words.

const LINES = 400_000;
const START_NS = BigInt(Date.UTC(2026, 10, 20, 0, 0, 0)) * 1_000_000n;
const GAP_NS = 9_000_000n; // 400,000 lines over one hour
const END_NS = START_NS + BigInt(LINES) * GAP_NS;
const SERIES = 100;
const SAMPLES = 20_000;
const START_MS = Date.UTC(2026, 10, 21, 0, 0, 0);
const GAP_MS = 1_000;

let dir: string;
let server: StorageServer;
let client: StorageClient;
const endpoint = () => ({ url: server.url, user: server.user, password: server.password });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'qryn-read-bounds-'));
  server = await startStorageServer({ dir });
  client = storageClient(endpoint());
  await loadBigLogs(client, 'qryn_big', START_NS, LINES, GAP_NS);
  await loadManySeries(client, 'qryn_series', START_MS, SERIES, SAMPLES, GAP_MS);
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ENV = ['QRYN_READ_MAX_ROWS_TO_READ', 'QRYN_PROMQL_MAX_SERIES', 'QRYN_PROMQL_MAX_ANSWER_POINTS', 'QRYN_LOKI_MAX_ANSWER_POINTS'];
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

/** A LogQL metric query over the whole of {app="big"}, at a 1-minute step. */
const logqlMetric = (query: string, signal?: AbortSignal) =>
  evaluateLogql(
    {
      endpoint: endpoint(),
      database: 'qryn_big',
      request: { query, startNs: START_NS, endNs: END_NS, stepNs: 60n * NS_PER_S, instant: false, limit: 100, direction: 'backward' },
      limits: DEFAULT_LIMITS,
      timeoutMs: 60_000,
    },
    signal,
    client,
  );

/** Polls until `check` holds, failing past `boundMs`. */
const until = (check: () => Promise<boolean>, boundMs = 20_000) => eventually(async () => ((await check()) ? true : undefined), boundMs);

const running = async (queryId: string) =>
  Number((await client.query<{ n: string }>(`SELECT toString(count()) AS n FROM system.processes WHERE query_id = '${queryId}'`))[0].n) > 0;

// Long enough to be running when it is aborted (minutes), cheap on memory.
const SLOW_SQL = 'SELECT sum(cityHash64(toString(number))) AS s FROM system.numbers';

describe('log queries stop reading at their limit', () => {
  const bigQuery = (query: string, direction: 'forward' | 'backward', querier: LogQuerier = createLogsQuerier(client, 'qryn_big')) =>
    runQuery(querier, { query, startNs: START_NS, endNs: END_NS, stepNs: 0n, instant: false, limit: 10, direction }, { ...DEFAULT_LIMITS, maxLinesRead: 1_000_000 });

  for (const direction of ['backward', 'forward'] as const) {
    it(`{app="big"} | json with limit 10 (${direction}) reads a small part of 400,000 lines and answers as a full read`, async () => {
      const { data, stats } = await bigQuery('{app="big"} | json', direction);
      expect(stats.linesRead).toBeGreaterThanOrEqual(10);
      expect(stats.linesRead).toBeLessThan(LINES / 20);
      // The same query over every line (a store that only answers whole streams): the same answer.
      const querier = createLogsQuerier(client, 'qryn_big');
      const full = await bigQuery('{app="big"} | json', direction, { selectLogs: querier.selectLogs });
      expect(full.stats.linesRead).toBe(LINES);
      expect(data).toEqual(full.data);
      const values = data.resultType === 'streams' ? data.result.flatMap((s) => s.values) : [];
      expect(values).toHaveLength(10);
      const expectedN = direction === 'backward' ? LINES - 1 : 0;
      expect(values.some(([, line]) => line.includes(`"n":${expectedN},`))).toBe(true);
    });
  }

  it('a stage that drops most lines reads on, window after window, until the limit is met', async () => {
    const { data, stats } = await bigQuery('{app="big"} | json | level="error"', 'backward');
    const values = data.resultType === 'streams' ? data.result.flatMap((s) => s.values) : [];
    expect(values).toHaveLength(10);
    expect(values.every(([, line]) => line.includes('"level":"error"'))).toBe(true);
    expect(stats.linesRead).toBeLessThan(LINES / 20);
  });

  it('maxLinesRead refuses as the lines arrive, not after the range was read', async () => {
    const querier = createLogsQuerier(client, 'qryn_big');
    const request = { query: '{app="big"} | json | n > 399990', startNs: START_NS, endNs: END_NS, stepNs: 0n, instant: false, limit: 10, direction: 'forward' as const };
    await expect(runQuery(querier, request, { ...DEFAULT_LIMITS, maxLinesRead: 50_000 })).rejects.toThrow('the query would read too many lines (50001 > 50000)');
    const metric = { ...request, query: 'sum(count_over_time({app="big"} | json | level="error" [1m]))', stepNs: 60n * NS_PER_S };
    await expect(runQuery(querier, metric, { ...DEFAULT_LIMITS, maxLinesRead: 50_000 })).rejects.toThrow('the query would read too many lines (50001 > 50000)');
  });
});

describe('reads nobody waits for are killed on ClickHouse', () => {
  it('an aborted read leaves system.processes', async () => {
    const controller = new AbortController();
    const queryId = `test-abort-${Date.now()}`;
    const read = (async () => {
      for await (const rows of client.streamRows(SLOW_SQL, { signal: controller.signal, queryId })) void rows;
    })();
    const settled = read.then(() => 'done', (error: unknown) => error);
    await until(() => running(queryId));
    controller.abort();
    expect(await settled).toBeInstanceOf(DOMException);
    await until(async () => !(await running(queryId)));
  });

  it('a reader that leaves the loop early kills the rest of the query', async () => {
    const queryId = `test-early-${Date.now()}`;
    let batches = 0;
    for await (const rows of client.streamRows<{ number: string }>('SELECT number FROM system.numbers', { queryId })) {
      batches += rows.length > 0 ? 1 : 0;
      if (batches >= 2) break;
    }
    expect(batches).toBe(2);
    await until(async () => !(await running(queryId)));
  });

  it('an aborted LogQL evaluation leaves no read of its lines running', async () => {
    const leftOver = async (table: string) =>
      Number((await client.query<{ n: string }>(`SELECT toString(count()) AS n FROM system.processes WHERE query LIKE '%${table}%' AND query NOT LIKE '%system.processes%'`))[0].n);
    // A regex that ClickHouse cannot answer from the index: every line is matched, over and over (a long range).
    const logs = new AbortController();
    const logql = logqlMetric('sum(count_over_time({app="big"} |~ "(a|b|c|d|e|f|g)+z{3}[0-9]+q" [1m]))', logs.signal);
    // It may have ended before it was seen: then only the check below applies.
    await until(async () => (await leftOver('qryn_big.log_samples')) > 0, 5_000).catch(() => undefined);
    logs.abort();
    await logql;
    await until(async () => (await leftOver('qryn_big.log_samples')) === 0);
  });
});

describe('bounds refused naming the limit', () => {
  it('ClickHouse applies the read settings per query and its refusal carries the code', async () => {
    const error = await (async () => {
      for await (const rows of client.streamRows(`SELECT count() FROM qryn_big.log_samples WHERE line != ''`, { params: 'max_rows_to_read=1000&read_overflow_mode=throw' })) void rows;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe(158);
  });

  it('an error ClickHouse writes into a body it already began is read as that error', async () => {
    const sql = 'SELECT number, throwIf(number = 300000) AS t FROM system.numbers LIMIT 400000';
    const rows = await (async () => {
      let n = 0;
      for await (const batch of client.streamRows(sql, { params: 'max_block_size=1000' })) n += batch.length;
      return n;
    })().catch((e: unknown) => e);
    expect(rows).toBeInstanceOf(StorageError);
    expect((rows as StorageError).code).toBe(395);
    const binary = await (async () => {
      const rowSql = `SELECT toUInt64(number) AS fp, [toUInt32(number)] AS t, [toFloat32(1)] AS v32, emptyArrayFloat64() AS v64,
        if(throwIf(number = 300000) = 0, '{}', '') AS labels FROM system.numbers LIMIT 400000`;
      for await (const row of seriesRows(client.streamRowBinary(rowSql, { params: 'max_block_size=1000' }), 0)) void row;
    })().catch((e: unknown) => e);
    expect(binary).toBeInstanceOf(StorageError);
    expect((binary as StorageError).code).toBe(395);
  });

  it('a LogQL read past QRYN_READ_MAX_ROWS_TO_READ is Loki\'s 400 naming the setting, not a 503', async () => {
    process.env.QRYN_READ_MAX_ROWS_TO_READ = '100000';
    const answer = await logqlMetric('sum(count_over_time({app="big"} | json | level="error" [1m]))');
    expect(answer).toMatchObject({ status: 400 });
    expect('body' in answer && bodyText(answer.body)).toContain("the query exceeded the storage's limit on rows to read (QRYN_READ_MAX_ROWS_TO_READ: 100000)");
  });

  const promql = (query: string, settings = promqlSettings({})) =>
    evaluatePromql({ endpoint: endpoint(), database: 'qryn_series', timeoutMs: 60_000, query: { kind: 'range', query, startMs: START_MS, endMs: START_MS + 3_600_000, stepMs: 60_000 } }, settings);

  it('a PromQL read past QRYN_READ_MAX_ROWS_TO_READ is 422 execution naming the setting', async () => {
    process.env.QRYN_READ_MAX_ROWS_TO_READ = '100000';
    const answer = await promql('sum(rate(big_metric[5m]))');
    expect(answer.status).toBe(422);
    expect(JSON.parse(bodyText(answer.body))).toEqual({ status: 'error', errorType: 'execution', error: "the query exceeded the storage's limit on rows to read (QRYN_READ_MAX_ROWS_TO_READ: 100000)" });
  });

  it('PromQL answers over the series and points caps are 422 naming the limit', async () => {
    expect((await promql('big_metric')).status).toBe(200);
    process.env.QRYN_PROMQL_MAX_SERIES = '50';
    const series = await promql('big_metric');
    expect(series.status).toBe(422);
    expect(JSON.parse(bodyText(series.body)).error).toBe('maximum number of series (50) reached for a single query (QRYN_PROMQL_MAX_SERIES)');
    delete process.env.QRYN_PROMQL_MAX_SERIES;
    process.env.QRYN_PROMQL_MAX_ANSWER_POINTS = '1000';
    const points = await promql('big_metric');
    expect(points.status).toBe(422);
    expect(JSON.parse(bodyText(points.body)).error).toContain('over the limit of 1000 (QRYN_PROMQL_MAX_ANSWER_POINTS)');
    expect((await promql('sum(big_metric)')).status).toBe(200);
  });

  it('LogQL metric answers over the points cap are refused with Loki\'s wording', async () => {
    process.env.QRYN_LOKI_MAX_ANSWER_POINTS = '30';
    const answer = await logqlMetric('count_over_time({app="big"}[1m])');
    expect(answer).toMatchObject({ status: 400 });
    expect('body' in answer && bodyText(answer.body)).toContain('maximum number of points (30) reached for a single query');
  });

  it('maxSamples refuses as the series arrive, before the rest is loaded', async () => {
    const { querier } = createMetricsQuerier(client, 'qryn_series');
    let counted = 0;
    const samples = {
      add(n: number) {
        counted += n;
        if (counted > 200_000) throw new Error('too many samples');
      },
    };
    const hints = { startMs: START_MS, endMs: START_MS + SAMPLES * GAP_MS, stepMs: 0, samples };
    await expect(querier.select([{ name: '__name__', op: '=', value: 'big_metric' }], hints)).rejects.toThrow('too many samples');
    // Stopped at the series that crossed the limit: a small part of the 2,000,000 stored samples was read.
    expect(counted).toBeGreaterThan(200_000);
    expect(counted).toBeLessThanOrEqual(200_000 + SAMPLES);
    const answer = await promql('big_metric', { ...promqlSettings({}), maxSamples: 200_000 });
    expect(answer.status).toBe(422);
    expect(JSON.parse(bodyText(answer.body)).error).toBe('query processing would load too many samples into memory in query execution');
  });

  it('a malformed setting is refused naming it', () => {
    expect(() => readSettings({ QRYN_READ_MAX_MEMORY_USAGE: '1GB' })).toThrow('QRYN_READ_MAX_MEMORY_USAGE must be a non-negative whole number (0: no bound), not "1GB".');
    expect(() => readSettings({ QRYN_PROMQL_MAX_SERIES: '0' })).toThrow('QRYN_PROMQL_MAX_SERIES must be a positive whole number, not "0".');
  });
});
