import { describe, expect, it } from 'vitest';
import { qrynClickhouseFrom } from '../../server/config';
import { localInstanceEvents } from '../../server/coordination/instance-events';
import { claimPort } from '../../server/coordination/port-ownership';
import { connectExternalStorage } from '../../server/products/qryn/storage/external-storage';
import { databaseOf, instanceDdl } from '../../server/products/qryn/storage/schema';
import { splitEndpointUrl } from '../../server/products/qryn/storage/storage-client';

// The settings that point qryn at an existing ClickHouse, the schema it makes there (docs/qryn.md "Storage on an
// existing ClickHouse"), and the single-instance forms of the coordination parts (tests/api/multi-instance-cluster
// runs them against a real cluster and PostgreSQL).

describe('QRYN_CLICKHOUSE_* settings', () => {
  it('are absent by default: the embedded server', () => {
    expect(qrynClickhouseFrom({})).toBeUndefined();
  });

  it('read URL, credentials, database prefix, cluster and replication', () => {
    expect(
      qrynClickhouseFrom({
        QRYN_CLICKHOUSE_URL: 'https://ch.example.com:8443',
        QRYN_CLICKHOUSE_USER: 'writer',
        QRYN_CLICKHOUSE_PASSWORD: 's3cret',
        QRYN_CLICKHOUSE_DATABASE: 'prod_qryn',
        QRYN_CLICKHOUSE_CLUSTER: 'logs',
        QRYN_CLICKHOUSE_REPLICATED: 'true',
      }),
    ).toEqual({ url: 'https://ch.example.com:8443', user: 'writer', password: 's3cret', databasePrefix: 'prod_qryn', cluster: 'logs', replicated: true, nodeUrls: undefined, readTimeoutMs: 20_000, insertTimeoutMs: 10_000 });
    expect(qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://127.0.0.1:8123' })).toMatchObject({ user: 'default', password: '', databasePrefix: 'qryn', replicated: false });
    expect(qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://ch:8123', QRYN_CLICKHOUSE_READ_TIMEOUT_S: '7', QRYN_CLICKHOUSE_INSERT_TIMEOUT_S: '3' })).toMatchObject({ readTimeoutMs: 7_000, insertTimeoutMs: 3_000 });
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://ch:8123', QRYN_CLICKHOUSE_INSERT_TIMEOUT_S: '0' })).toThrow(/QRYN_CLICKHOUSE_INSERT_TIMEOUT_S must be a whole number of 1 or more/);
  });

  it('stop the start with the setting named when they do not fit', () => {
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_CLUSTER: 'logs' })).toThrow(/QRYN_CLICKHOUSE_CLUSTER set without QRYN_CLICKHOUSE_URL/);
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'ch:8123' })).toThrow(/QRYN_CLICKHOUSE_URL must be an http or https URL/);
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://u:p@ch:8123' })).toThrow(/must not carry credentials/);
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://ch:8123', QRYN_CLICKHOUSE_REPLICATED: 'true' })).toThrow(/needs QRYN_CLICKHOUSE_CLUSTER/);
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://ch:8123', QRYN_CLICKHOUSE_REPLICATED: 'yes', QRYN_CLICKHOUSE_CLUSTER: 'c' })).toThrow(/QRYN_CLICKHOUSE_REPLICATED must be true or false/);
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://ch:8123', QRYN_CLICKHOUSE_DATABASE: 'Bad-Name' })).toThrow(/QRYN_CLICKHOUSE_DATABASE/);
    expect(() => qrynClickhouseFrom({ QRYN_CLICKHOUSE_URL: 'http://ch:8123', QRYN_CLICKHOUSE_CLUSTER: "x'; DROP" })).toThrow(/QRYN_CLICKHOUSE_CLUSTER must be/);
  });

  it('give the instances databases with the prefix', () => {
    expect(databaseOf('ab12', 'prod_qryn')).toBe('prod_qryn_ab12');
    expect(databaseOf('ab12')).toBe('qryn_ab12');
  });
});

describe('the schema on a cluster', () => {
  it('is one table per name on one server', () => {
    const ddl = instanceDdl('qryn_x');
    expect(ddl.some((s) => s.includes('Distributed') || s.includes('_local') || s.includes('ON CLUSTER'))).toBe(false);
    expect(ddl.find((s) => s.includes('qryn_x.log_samples '))).toMatch(/ENGINE = MergeTree PARTITION BY date ORDER BY \(fingerprint, timestamp_ns\)/);
  });

  it('is sharded local tables with Distributed tables under the readers names, by fingerprint (trace id for spans)', () => {
    const ddl = instanceDdl('qryn_x', { cluster: 'pair' });
    expect(ddl.some((s) => s.includes('ON CLUSTER'))).toBe(false);
    expect(ddl).toContain("CREATE TABLE IF NOT EXISTS qryn_x.log_samples AS qryn_x.log_samples_local ENGINE = Distributed('pair', 'qryn_x', 'log_samples_local', fingerprint)");
    expect(ddl).toContain("CREATE TABLE IF NOT EXISTS qryn_x.spans AS qryn_x.spans_local ENGINE = Distributed('pair', 'qryn_x', 'spans_local', cityHash64(trace_id))");
    expect(ddl.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS qryn_x.time_series_local'))).toMatch(/ENGINE = ReplacingMergeTree\(date\) PARTITION BY date/);
  });

  it('is replicated and made ON CLUSTER when a Keeper is configured', () => {
    const ddl = instanceDdl('qryn_x', { cluster: 'logs', replicated: true });
    expect(ddl[0]).toBe('CREATE DATABASE IF NOT EXISTS qryn_x ON CLUSTER logs');
    expect(ddl.every((s) => s.includes(' ON CLUSTER logs'))).toBe(true);
    expect(ddl.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS qryn_x.series_labels_local'))).toContain(
      "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/qryn_x/series_labels_local', '{replica}', date)",
    );
    expect(ddl.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS qryn_x.metric_samples_local'))).toContain("ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/qryn_x/metric_samples_local', '{replica}')");
  });
});

describe('endpoint URLs with settings', () => {
  it('carry the cluster settings in the query string to every statement', () => {
    const storage = connectExternalStorage({ url: 'http://ch:8123/?max_threads=2', user: 'u', password: 'p', databasePrefix: 'qryn', cluster: 'pair', replicated: false, readTimeoutMs: 20_000, insertTimeoutMs: 10_000 }, () => undefined);
    expect(splitEndpointUrl(storage.url)).toEqual({ base: 'http://ch:8123', settings: 'max_threads=2&insert_distributed_sync=1&distributed_product_mode=local' });
    expect(storage.cluster?.name).toBe('pair');
    expect(storage.pid).toBeUndefined();
    const single = connectExternalStorage({ url: 'http://ch:8123', user: 'u', password: 'p', databasePrefix: 'qryn', replicated: false, readTimeoutMs: 20_000, insertTimeoutMs: 10_000 }, () => undefined);
    expect(single.url).toBe('http://ch:8123');
    expect(single.cluster).toBeUndefined();
  });
});

describe('coordination with a single instance', () => {
  it('runs the handlers of a published topic in this process', async () => {
    const events = localInstanceEvents();
    const seen: unknown[] = [];
    const off = events.subscribe('t', (m) => seen.push(m));
    await events.publish('t', { instanceId: 'a' });
    await events.publish('other', {});
    off();
    await events.publish('t', { instanceId: 'b' });
    expect(seen).toEqual([{ instanceId: 'a' }]);
  });

  it('owns a port at once without PostgreSQL (one instance) and for port 0', async () => {
    let started = 0;
    const claim = await claimPort({ name: 'HEP', port: 9060, start: async () => void started++, log: () => undefined });
    expect(claim.owned()).toBe(true);
    expect(started).toBe(1);
  });
});
