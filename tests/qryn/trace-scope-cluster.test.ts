import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLUSTER_SETTINGS } from '../../server/products/qryn/storage/external-storage';
import { Batch } from '../../server/products/qryn/ingest/batch';
import { decodeOtlp } from '../../server/products/qryn/ingest/traces';
import { createWriter } from '../../server/products/qryn/ingest/writer';
import { storageClient } from '../../server/products/qryn/storage/storage-client';
import { createTraceReader } from '../../server/products/qryn/read/trace-reader';
import { searchTraces } from '../../server/products/qryn/read/trace-search';
import { parseQuery } from '../../packages/traceql/parse';
import { clusterForFile, queryNode } from '../support/clickhouse-cluster';

// An instance database made on a two-node cluster (sharded spans_local tables and a Distributed spans table on each
// node) before the instrumentation scope attributes were kept: the first write adds the scope columns on every
// node, local tables first, and the spans of both shards then answer with and without scope attributes.

const clusterOfFile = clusterForFile();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('instrumentation scope columns on a cluster database made before them', () => {
  it('are added on every node, local and Distributed tables, and answer searches and trace reads', async () => {
    const cluster = clusterOfFile();
    const nodes = cluster.nodes.map((n) => ({ url: n.url, user: cluster.user, password: cluster.password }));
    const client = storageClient({ url: `${cluster.url}/?${CLUSTER_SETTINGS}`, user: cluster.user, password: cluster.password, cluster: { name: cluster.name, replicated: false, nodes: async () => nodes } });
    const database = `qryn_scope_${hex(4)}`;
    const columns = `date Date, trace_id String, span_id String, parent_id String, name String,
      service_name LowCardinality(String), kind LowCardinality(String), timestamp_ns Int64, duration_ns Int64,
      status_code Int32, attribute_keys Array(String), attribute_values Array(String),
      source LowCardinality(String), payload String, resource_keys Array(String), resource_values Array(String),
      attribute_types Array(String), resource_types Array(String), scope_name String, scope_version String`;
    const ddl = { settings: { allow_experimental_low_cardinality_type: 1 } };
    for (const node of nodes.map((n) => storageClient(n))) {
      await node.command(`CREATE DATABASE ${database}`);
      await node.command(`CREATE TABLE ${database}.spans_local (${columns}) ENGINE = MergeTree PARTITION BY date ORDER BY (trace_id, timestamp_ns)`, ddl);
      await node.command(`CREATE TABLE ${database}.spans AS ${database}.spans_local ENGINE = Distributed(${cluster.name}, '${database}', 'spans_local', cityHash64(trace_id))`, ddl);
    }
    try {
      const startNs = BigInt(Date.now() - 60_000) * 1_000_000n;
      const day = new Date(Number(startNs / 1_000_000n)).toISOString().slice(0, 10);
      const oldTrace = hex(16);
      await client.command(
        `INSERT INTO ${database}.spans VALUES ('${day}', '${oldTrace}', '${hex(8)}', '', 'old root', 'legacy', 'SERVER', ${startNs}, 1000, 0, [], [], 'otlp', '{}', ['service.name'], ['legacy'], [], ['s'], 'old-lib', '1.0')`,
      );
      // Eight traces: spread over both shards by their ids.
      const newTraces = Array.from({ length: 8 }, () => hex(16));
      const batch = new Batch();
      decodeOtlp({
        resourceSpans: [{
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'fresh' } }] },
          scopeSpans: [{
            scope: { name: 'new-lib', attributes: [{ key: 'lib.shard', value: { intValue: '3' } }] },
            spans: newTraces.map((traceId, i) => ({ traceId, spanId: hex(8), name: `new root ${i}`, startTimeUnixNano: String(startNs + BigInt(i)), endTimeUnixNano: String(startNs + 5_000n) })),
          }],
        }],
      }, batch);
      await createWriter(() => Date.now()).write({ id: `scope-${database}`, database, client, fingerprintLimit: 0 }, batch);
      for (const node of [0, 1]) {
        for (const table of ['spans_local', 'spans']) {
          const names = await queryNode(cluster, node, `SELECT name FROM system.columns WHERE database = '${database}' AND table = '${table}' AND name LIKE 'scope_%' ORDER BY name FORMAT TSV`);
          expect(names.split('\n'), `node ${node} ${table}`).toEqual(['scope_keys', 'scope_name', 'scope_types', 'scope_values', 'scope_version']);
        }
      }
      const perNode = await Promise.all([0, 1].map((node) => queryNode(cluster, node, `SELECT count() FROM ${database}.spans_local WHERE has(scope_keys, 'lib.shard') FORMAT TSV`)));
      expect(perNode.map(Number).every((n) => n > 0), `rows per node ${perNode}`).toBe(true);
      const reader = createTraceReader(client, database);
      expect((await reader.trace(oldTrace))[0].spans[0].scope).toEqual({ name: 'old-lib', version: '1.0', attributes: [], types: [] });
      expect((await reader.trace(newTraces[0]))[0].spans[0].scope).toEqual({ name: 'new-lib', version: '', attributes: [['lib.shard', '3']], types: ['i'] });
      const range = { startNs: startNs - 1_000_000_000n, endNs: startNs + 1_000_000_000n };
      const query = parseQuery('{ instrumentation.lib.shard = 3 }');
      if (query.kind !== 'search') throw new Error('a search query');
      const { hits } = await searchTraces(client, database, { pipeline: query.pipeline, range, limit: 20, spansPerSpanSet: 3, signal: new AbortController().signal });
      expect(hits.map((h) => h.traceId).sort()).toEqual([...newTraces].sort());
      expect(await reader.tagNames(range, 'instrumentation')).toEqual(['lib.shard']);
    } finally {
      for (const node of [0, 1]) await queryNode(cluster, node, `DROP DATABASE IF EXISTS ${database}`);
    }
  }, 120_000);
});
