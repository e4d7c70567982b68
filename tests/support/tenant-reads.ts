import { expect } from 'vitest';
import type { Database } from '../../server/db/database';
import type { ProductRegistry } from '../../server/products/product-registry';
import type { PlatformConfig } from '../../server/config';
import { createBillingAccount } from '../../server/db/repositories/billing-repository';
import { createOrganization } from '../../server/db/repositories/organizations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { remoteWrite, remoteWriteBody } from '../qryn/promql-samples';
import { enableQryn, enableQrynOnSeededProject, type EnabledQryn } from './qryn';

// Two tenants of one platform's qryn reads, shared by the scheduler's test (tests/qryn/read-scheduler-tenants.test.ts)
// and `npm run bench:tenants`: tenant A (Acme's instance) holds many JSON log lines and floods the read side with
// queries that parse every one of them; tenant B (an instance of another organization) makes small reads, one Loki
// and one Prometheus call, whose answer times are what the scheduler must keep.

type Platform = { db: Database; products: ProductRegistry; config: PlatformConfig };

export interface Tenants {
  a: EnabledQryn;
  b: EnabledQryn;
  /** An access token of A's organization owner, for the platform API (the metrics call). */
  aToken: string;
}

/** A on Acme Production; B on a project of a second organization, owned by dev@example.com. */
export async function enableTwoTenants(platform: Platform): Promise<Tenants> {
  const { qryn: a, ownerToken } = await enableQrynOnSeededProject(platform, 'Acme Production');
  const dev = (await findUserByEmail(platform.db, 'dev@example.com'))!;
  const billing = await createBillingAccount(platform.db, { name: 'Globex billing', ownerUserId: dev.id, isDefault: false, forOrganization: true });
  const globex = await createOrganization(platform.db, { name: 'Globex', billingAccountId: billing.id, ownerUserId: dev.id });
  const project = await createProject(platform.db, { name: 'Globex Reads', organizationId: globex, userId: dev.id, billingAccountId: billing.id });
  const b = await enableQryn(platform, project.id, dev.id, globex);
  return { a, b, aToken: ownerToken };
}

const LEVELS = ['info', 'warn', 'error', 'debug'];

/** `count` JSON lines for A over the last `spanMs`, pushed in pushes of 20,000 (within the samples-per-second bucket). */
export async function pushFloodLines(a: EnabledQryn, count: number, spanMs: number): Promise<void> {
  const endMs = Date.now() - 1_000;
  for (let from = 0; from < count; from += 20_000) {
    const values: [string, string][] = [];
    for (let i = from; i < Math.min(count, from + 20_000); i++) {
      const ns = BigInt(endMs - Math.floor((spanMs * (count - i)) / count)) * 1_000_000n + BigInt(i % 1_000_000);
      const line = JSON.stringify({ level: LEVELS[i % 4], user: `u${i % 97}`, path: `/api/items/${i % 500}`, ms: i % 250, msg: `request ${i} served` });
      values.push([String(ns), line]);
    }
    await pushUntilAccepted(a, JSON.stringify({ streams: [{ stream: { app: 'flood' }, values }] }));
  }
}

/** A push, again after the Retry-After of a 429 (the samples-per-second bucket refills). */
async function pushUntilAccepted(tenant: EnabledQryn, body: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await fetch(`${tenant.url}/loki/api/v1/push`, { method: 'POST', headers: { authorization: tenant.basic, 'content-type': 'application/json' }, body });
    if (response.status === 204) return;
    const text = await response.text();
    if (response.status !== 429) throw new Error(`push answered ${response.status}: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
  throw new Error('push refused 20 times');
}

/** B's few lines and one counter, in the last minutes. */
export async function pushSmallData(b: EnabledQryn): Promise<void> {
  const now = Date.now();
  const values = Array.from({ length: 50 }, (_, i) => [String(BigInt(now - 120_000 + i * 1000) * 1_000_000n), `GET /checkout ${i} 200`]);
  await pushUntilAccepted(b, JSON.stringify({ streams: [{ stream: { app: 'shop' }, values }] }));
  const samples = Array.from({ length: 10 }, (_, i) => ({ value: i * 3, timestamp: now - 150_000 + i * 15_000 }));
  await remoteWrite(`${b.url}/api/v1/prom/remote/write`, remoteWriteBody([{ labels: { __name__: 'shop_requests_total', job: 'shop' }, samples }]), b.basic);
}

/** A's expensive query: every line of the last hour parsed as JSON, counted per user each minute. */
export function floodQueryUrl(a: EnabledQryn): string {
  const end = Date.now();
  const params = new URLSearchParams({ query: 'sum by (user) (count_over_time({app="flood"} | json [1m]))', start: `${end - 3_600_000}000000`, end: `${end}000000`, step: '60' });
  return `${a.url}/loki/api/v1/query_range?${params}`;
}

/** B's small reads, taken in turn: the last lines of a stream, and a counter's value now. */
export function smallReadUrls(b: EnabledQryn): string[] {
  const end = Date.now() + 60_000;
  const logs = new URLSearchParams({ query: '{app="shop"}', limit: '10', start: `${end - 600_000}000000`, end: `${end}000000` });
  const metrics = new URLSearchParams({ query: 'shop_requests_total{job="shop"}' });
  return [`${b.url}/loki/api/v1/query_range?${logs}`, `${b.url}/api/v1/query?${metrics}`];
}

export interface Timed {
  ms: number;
  status: number;
  retryAfter: string | null;
  /** The body of an answer that is not 200. */
  error?: string;
}

export async function timedGet(url: string, authorization: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization } });
  const body = await response.text();
  const timed = { ms: performance.now() - started, status: response.status, retryAfter: response.headers.get('retry-after') };
  return response.status === 200 ? timed : { ...timed, error: body };
}

/** `count` of B's small reads one after the other, alternating Loki and Prometheus. */
export async function smallReads(b: EnabledQryn, count: number): Promise<Timed[]> {
  const urls = smallReadUrls(b);
  const results: Timed[] = [];
  for (let i = 0; i < count; i++) results.push(await timedGet(urls[i % urls.length], b.basic));
  return results;
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * `clients` of A sending the expensive query again as soon as each answer comes (a tenant that ignores Retry-After,
 * pausing 100 ms after a refusal only so as not to spin), until stop(); answers every answer they got. With `urls`,
 * each client takes them in turn instead (starting at its own index).
 */
export function flood(a: EnabledQryn, clients: number, urls: () => string[] = () => [floodQueryUrl(a)]): { stop(): Promise<Timed[]> } {
  let stopped = false;
  const results: Timed[] = [];
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let n = client; !stopped; n++) {
      const each = urls();
      const result = await timedGet(each[n % each.length], a.basic);
      results.push(result);
      if (result.status === 429) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return results;
    },
  };
}

/**
 * Tenant B's reads under A's flood keep their latency and never fail: every one answered 200, and the p50 within 5×
 * of B's p50 alone (the 150 ms beside it absorbs a loaded machine's noise on a p50 of a few ms).
 */
export function expectLatencyKept(what: string, alone: Timed[], under: Timed[], floodAnswers: number): void {
  const p50Alone = percentile(alone.map((r) => r.ms), 50);
  const p50Under = percentile(under.map((r) => r.ms), 50);
  console.log(`tenant B ${what} p50 alone ${p50Alone.toFixed(0)} ms, under A's flood ${p50Under.toFixed(0)} ms; A: ${floodAnswers} answers`);
  expect(under).toHaveLength(alone.length);
  expect(under.map((r) => r.status)).toEqual(Array(alone.length).fill(200));
  expect(p50Under).toBeLessThanOrEqual(Math.max(5 * p50Alone, p50Alone + 150));
}
