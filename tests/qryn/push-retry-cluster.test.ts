import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { compressSync } from 'snappy';
import { clusterForFile, queryNode, type LocalClickhouseCluster } from '../support/clickhouse-cluster';
import { startPlatformOnCluster } from '../support/platform-on-cluster';
import { enableQrynOnSeededProject, eventually, type EnabledQryn } from '../support/qryn';
import type { TestPlatform } from '../support/start-platform';
import { OtlpTraceEncoder, PromWriteRequest } from '../../server/products/qryn/ingest/protos';

// Pushes refused with 503 while one shard of a two-node ClickHouse 18.16 cluster hangs (SIGSTOP) are still stored
// once the shard resumes (the entry node finishes their inserts). An agent retries them: each protocol's push and
// its retries must leave exactly one copy of every row on the shards. A push re-sent after it succeeded is stored
// again (a client may send the same line twice on purpose).

const TIMEOUT_S = 3;
const require = createRequire(import.meta.url);
const LokiPush = (require('winston-loki/src/proto/index.js') as { logproto: { PushRequest: { encode(m: unknown): { finish(): Uint8Array } } } }).logproto.PushRequest;

const clusterOfFile = clusterForFile({ shards: 2 });
let cluster: LocalClickhouseCluster;
let platform: TestPlatform;
let qryn: EnabledQryn;
let db: string;
beforeAll(async () => {
  cluster = clusterOfFile();
  platform = await startPlatformOnCluster(cluster, { QRYN_CLICKHOUSE_READ_TIMEOUT_S: String(TIMEOUT_S), QRYN_CLICKHOUSE_INSERT_TIMEOUT_S: String(TIMEOUT_S) });
  ({ qryn } = await enableQrynOnSeededProject(platform, 'Acme Production'));
  db = `qryn_${qryn.instanceId}`;
}, 120_000);
afterAll(async () => {
  await platform?.stop();
});

interface Push {
  name: string;
  path: string;
  type: string;
  encoding?: string;
  body: Uint8Array | string;
  /** The local table its rows land in, and the condition that picks this push's rows. */
  table: string;
  where: string;
}

async function send(push: Push) {
  const started = Date.now();
  const headers: Record<string, string> = { authorization: qryn.basic, 'content-type': push.type };
  if (push.encoding) headers['content-encoding'] = push.encoding;
  const response = await fetch(`${qryn.url}${push.path}`, { method: 'POST', headers, body: push.body as BodyInit, signal: AbortSignal.timeout(60_000) });
  await response.body?.cancel();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started };
}

const STREAMS = 8;
const nowNs = () => BigInt(Date.now()) * 1_000_000n;

/** Eight streams (so both shards get lines), one line each, marked with `tag`. */
function lokiJson(tag: string): Push {
  const ts = String(nowNs());
  const streams = Array.from({ length: STREAMS }, (_, i) => ({ stream: { job: 'retry-json', n: String(i) }, values: [[ts, `json ${tag} ${i}`]] }));
  return { name: 'Loki JSON', path: '/loki/api/v1/push', type: 'application/json', body: JSON.stringify({ streams }), table: 'log_samples_local', where: `line LIKE 'json ${tag} %'` };
}

function lokiProto(tag: string): Push {
  const ms = Date.now();
  const streams = Array.from({ length: STREAMS }, (_, i) => ({ labels: `{job="retry-proto", n="${i}"}`, entries: [{ timestamp: { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 }, line: `proto ${tag} ${i}` }] }));
  const body = new Uint8Array(compressSync(Buffer.from(LokiPush.encode({ streams }).finish())));
  return { name: 'Loki protobuf', path: '/loki/api/v1/push', type: 'application/x-protobuf', body, table: 'log_samples_local', where: `line LIKE 'proto ${tag} %'` };
}

/** Eight series of one metric; each push has its own timestamp, so its samples are told apart by it. */
function remoteWrite(timestampMs: number): Push {
  const timeseries = Array.from({ length: STREAMS }, (_, i) => ({ labels: [{ name: '__name__', value: 'retry_up' }, { name: 'n', value: String(i) }], samples: [{ value: i, timestamp: timestampMs }] }));
  const body = new Uint8Array(compressSync(Buffer.from(PromWriteRequest.encode(PromWriteRequest.fromObject({ timeseries })).finish())));
  return { name: 'remote write', path: '/api/v1/prom/remote/write', type: 'application/x-protobuf', encoding: 'snappy', body, table: 'metric_samples_local', where: `timestamp_ns = ${BigInt(timestampMs) * 1_000_000n}` };
}

/** Eight spans of eight traces (the same trace ids in every push: spread over both shards by trace id), named by `tag`. */
function otlp(tag: string): Push {
  const start = nowNs();
  const spans = Array.from({ length: STREAMS }, (_, i) => ({
    traceId: Buffer.from((i + 1).toString(16).padStart(32, 'a'), 'hex'),
    spanId: Buffer.from((i + 1).toString(16).padStart(16, 'b'), 'hex'),
    name: `retry ${tag}`,
    kind: 2,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 1_000_000n),
  }));
  const body = OtlpTraceEncoder.encode({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'retry' } }] }, scopeSpans: [{ spans }] }] }).finish();
  return { name: 'OTLP traces', path: '/v1/traces', type: 'application/x-protobuf', body, table: 'spans_local', where: `name = 'retry ${tag}'` };
}

/** The push's rows on each node's local table. */
const rowsOn = async (push: Push) => Promise.all([0, 1].map(async (node) => Number(await queryNode(cluster, node, `SELECT count() FROM ${db}.${push.table} WHERE ${push.where}`))));
const insertsRunning = async () =>
  (await Promise.all([0, 1].map((node) => queryNode(cluster, node, "SELECT count() FROM system.processes WHERE query LIKE 'INSERT%'")))).reduce((sum, n) => sum + Number(n), 0);

/** Sends until the push is accepted, as an agent does (bounded: a minute on a loaded machine). */
const retryUntilStored = (push: Push) => eventually(async () => ((await send(push)).status < 300 ? true : undefined), 60_000);

/** The rows of `push` once no insert runs on either node any more (what the stalled inserts left is in). */
async function settledRows(push: Push): Promise<number[]> {
  await eventually(async () => ((await insertsRunning()) === 0 ? true : undefined), 60_000);
  return rowsOn(push);
}

describe('pushes refused while a shard is stalled', () => {
  it.each([1, 0])('are stored exactly once when their agent retries them (node %i stalled)', async (stalled) => {
    const tag = `${Date.now().toString(16)}n${stalled}`;
    const metricMs = Date.now();
    // The series exist before the stall (an agent's streams mostly do): the refused pushes then reach the sample
    // inserts, which the entry node finishes when the shard resumes.
    for (const warm of [lokiJson(`${tag}w`), lokiProto(`${tag}w`), remoteWrite(metricMs - 1_000)]) expect((await send(warm)).status, warm.name).toBeLessThan(300);
    const pushes = [lokiJson(tag), lokiProto(tag), remoteWrite(metricMs), otlp(tag)];

    cluster.pause(stalled);
    try {
      const refused = await Promise.all(pushes.map(send));
      const retried = await Promise.all(pushes.map(send));
      for (const [i, answer] of [...refused, ...retried].entries()) {
        const name = pushes[i % pushes.length].name;
        expect(answer.status, name).toBe(503);
        expect(answer.retryAfter, name).toMatch(/^\d+$/);
        expect(answer.ms, name).toBeLessThan(15_000);
      }
    } finally {
      cluster.resume(stalled);
    }

    for (const push of pushes) await retryUntilStored(push);
    for (const push of pushes) {
      const rows = await settledRows(push);
      expect(rows[0] + rows[1], push.name).toBe(STREAMS);
      // Both shards hold some of them: the push was split over the shards, the stalled one included.
      expect(Math.min(...rows), push.name).toBeGreaterThan(0);
    }
  }, 180_000);

  it('stores a push again when it is re-sent after it succeeded', async () => {
    const tag = `${Date.now().toString(16)}a`;
    const pushes = [lokiJson(tag), otlp(tag)];
    for (const push of pushes) {
      expect((await send(push)).status, push.name).toBeLessThan(300);
      expect((await send(push)).status, push.name).toBeLessThan(300);
      const rows = await settledRows(push);
      expect(rows[0] + rows[1], push.name).toBe(2 * STREAMS);
    }
  }, 60_000);
});
