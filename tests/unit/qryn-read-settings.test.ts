import { afterEach, describe, expect, it } from 'vitest';
import { checkReadSettings, createGateway } from '../../server/products/qryn/gateway/gateway';
import { DEFAULT_GATEWAY_LIMITS } from '../../server/products/qryn/gateway/gateway-limits';

describe("the query calls' settings are checked when the gateway is made", () => {
  const saved = process.env.QRYN_LOKI_WORKERS;
  afterEach(() => {
    if (saved === undefined) delete process.env.QRYN_LOKI_WORKERS;
    else process.env.QRYN_LOKI_WORKERS = saved;
  });

  it('accepts the defaults and well-formed values', () => {
    expect(() => checkReadSettings({})).not.toThrow();
    expect(() => checkReadSettings({ QRYN_LOKI_WORKERS: '0', QRYN_PROMQL_TIMEOUT: '30s' })).not.toThrow();
  });

  it('refuses a malformed LogQL or PromQL setting by name', () => {
    expect(() => checkReadSettings({ QRYN_LOKI_WORKERS: 'abc' })).toThrow(/QRYN_LOKI_WORKERS/);
    expect(() => checkReadSettings({ QRYN_PROMQL_WORKERS: 'two' })).toThrow(/QRYN_PROMQL_WORKERS/);
    expect(() => checkReadSettings({ QRYN_READ_MAX_ROWS_TO_READ: '1e9' })).toThrow(/QRYN_READ_MAX_ROWS_TO_READ/);
    expect(() => checkReadSettings({ QRYN_READ_MAX_EXECUTION_TIME: '0' })).toThrow(/QRYN_READ_MAX_EXECUTION_TIME/);
  });

  it('a gateway is not made with a malformed setting in the environment', () => {
    process.env.QRYN_LOKI_WORKERS = 'abc';
    const deps = { db: {}, writer: {}, storage: () => undefined, nowMs: () => 0, log: () => undefined, limits: DEFAULT_GATEWAY_LIMITS };
    expect(() => createGateway(deps as unknown as Parameters<typeof createGateway>[0])).toThrow(/QRYN_LOKI_WORKERS/);
  });
});
