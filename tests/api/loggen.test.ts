import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LoggenRunChunk, RATE_MESSAGE } from '../../contract/loggen';
import { Schema } from 'effect';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { databaseTargets } from '../support/postgres';
import { createTokenMinter } from '../support/mint-token';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// Loggen against the real platform (job worker, database) and a receiving end that speaks the ingestion protocols
// and checks basic auth like a qryn instance: what arrives there is what Loggen generated and shipped.

interface Received {
  path: string;
  authorization: string | undefined;
  body: string;
}

async function startReceiver(key: string, secret: string) {
  const received: Received[] = [];
  const expected = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Unauthorized', description: 'Wrong API key or secret.' }));
      return;
    }
    received.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/qryn/test`,
    received,
    lines: () =>
      received
        .filter((r) => r.path.endsWith('/loki/api/v1/push'))
        .flatMap((r) => (JSON.parse(r.body) as { streams: { stream: Record<string, string>; values: [string, string][] }[] }).streams)
        .flatMap((s) => s.values.map(([, line]) => ({ labels: s.stream, line }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const decodeChunk = Schema.decodeUnknownSync(LoggenRunChunk);

describe.each(databaseTargets())('Loggen API ($kind)', (target) => {
  let platform: TestPlatform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: string;
  let viewer: string;
  let projectId: number;

  const call = async (method: string, path: string, options: { token?: string; body?: unknown; query?: Record<string, string | number> } = {}) => {
    const url = new URL(`/api/integrations/loggen/${path}`, platform.url);
    for (const [k, v] of Object.entries(options.query ?? { project_id: projectId })) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  };
  const chunks = (text: string) => text.trim().split('\n').map((line) => decodeChunk(JSON.parse(line)));

  beforeAll(async () => {
    // The receiver listens on 127.0.0.1: allowed here by the operator's setting, as a LAN installation would.
    platform = await startTestPlatform({ embedded: target.kind === 'pglite', env: { OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1' } });
    receiver = await startReceiver('loggen-key', 'loggen-secret');
    const mint = await createTokenMinter(platform.db, platform.config);
    const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
    await createIntegration(platform.db, { projectId, productSlug: 'loggen', status: 'trial', creatorUserId: demo.id, trialDays: 14 });
    owner = await mint(demo, { organizationId: acme });
    viewer = await mint((await findUserByEmail(platform.db, 'viewer@example.com'))!, { organizationId: acme });
  });
  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  const config = (patch: Record<string, unknown> = {}) => ({
    url: receiver.url,
    headers: [{ key: 'X-Tenant', value: 'acme' }],
    api_key: 'loggen-key',
    api_secret: 'loggen-secret',
    labels: [{ key: 'app', value: 'checkout' }],
    rate: 50,
    timeout: '5s',
    log_config: {
      format: 'logfmt',
      structure: [
        { name: 'level', expression: '{{app.level}}' },
        { name: 'status', expression: '{{http.status}}' },
        { name: 'msg', expression: '{{text.phrase}}' },
      ],
    },
    enable_metrics: true,
    traces: { enabled: true, custom: false, spans: [] },
    ...patch,
  });

  it('answers the catalogue and its categories', async () => {
    const categories = (await call('GET', 'config/logs/categories', { token: owner, query: {} })).json();
    expect(categories.map((c: { category: string }) => c.category)).toContain('http');
    const http = (await call('GET', 'config/logs', { token: owner, query: { category: 'http' } })).json();
    expect(http.length).toBeGreaterThan(0);
    expect(http.every((o: { category: string }) => o.category === 'http')).toBe(true);
    expect((await call('GET', 'config/logs/categories', { query: {} })).status).toBe(401);
  });

  it('starts from defaults, saves per field rules, and answers the run step', async () => {
    const initial = (await call('GET', 'config', { token: owner })).json();
    expect(initial).toMatchObject({ project_id: projectId, rate: 10, timeout: '30s', labels: [{ key: 'app', value: 'loggen' }] });
    const bad = await call('PATCH', 'config', { token: owner, body: config({ rate: 0, labels: [] }) });
    expect(bad.status).toBe(400);
    expect(bad.json().details.rate).toEqual([RATE_MESSAGE]);
    expect(bad.json().details.labels).toBeDefined();
    expect((await call('GET', 'config', { token: owner })).json().rate).toBe(10); // nothing saved
    const saved = await call('PATCH', 'config', { token: owner, body: config() });
    expect(saved.status).toBe(200);
    expect(saved.json()).toEqual({ message: 'The configuration has been saved', step: 'run-loggen' });
    expect((await call('GET', 'config', { token: owner })).json()).toMatchObject({ rate: 50, labels: [{ key: 'app', value: 'checkout' }] });
  });

  it('refuses read-only members, strangers and malformed bodies', async () => {
    expect((await call('PATCH', 'config', { token: viewer, body: config() })).status).toBe(403);
    expect((await call('POST', 'run', { token: viewer })).status).toBe(403);
    expect((await call('GET', 'config', { token: viewer })).json().api_secret).toBe('');
    expect((await call('GET', 'config')).status).toBe(401);
    const stranger = await createTokenMinter(platform.db, platform.config).then(async (mint) => mint((await findUserByEmail(platform.db, 'new@example.com'))!));
    expect((await call('GET', 'config', { token: stranger })).status).toBe(404);
    expect((await call('PATCH', 'config', { token: owner, body: { rate: 'fast' } })).status).toBe(400);
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (body) => {
        const response = await call('PATCH', 'config', { token: owner, body });
        expect([400]).toContain(response.status);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 30) },
    );
  });

  it('runs: streams progress to 100% and ships rate × seconds logfmt lines with the labels, metrics and traces', async () => {
    const before = receiver.lines().length;
    const run = await call('POST', 'run', { token: owner });
    expect(run.status).toBe(200);
    const progress = chunks(run.text);
    expect(progress.at(-1)).toEqual({ current: 250, max: 250, status: 'done' });
    expect(progress.length).toBeGreaterThan(2); // it streamed, not one answer at the end
    const lines = receiver.lines().slice(before);
    expect(lines).toHaveLength(250);
    expect(lines.every((l) => l.labels.app === 'checkout')).toBe(true);
    expect(lines[0].line).toMatch(/^level=\w+ status=\d{3} msg=".*" traceID=[0-9a-f]{32}$/);
    expect(receiver.received.some((r) => r.path.endsWith('/influx/api/v2/write') && r.body.startsWith('loggen_lines,app=checkout'))).toBe(true);
    expect(receiver.received.some((r) => r.path.endsWith('/tempo/api/push') && JSON.parse(r.body)[0].kind === 'SERVER')).toBe(true);
    // Coming back to the page: the last run's outcome.
    expect(chunks((await call('GET', 'run', { token: owner })).text)).toEqual([{ current: 250, max: 250, status: 'done' }]);
  });

  it('one run at a time; a run can be stopped', async () => {
    // The run's answer starts (its headers) only once its job is recorded, so the second POST finds it running.
    const first = await fetch(new URL(`/api/integrations/loggen/run?project_id=${projectId}`, platform.url), { method: 'POST', headers: { authorization: `Bearer ${owner}` } });
    expect(first.status).toBe(200);
    const second = await call('POST', 'run', { token: owner });
    expect(second.status).toBe(409);
    expect(second.json().description).toMatch(/already running/);
    expect((await call('POST', 'run/stop', { token: owner })).json().message).toBe('Loggen has been stopped');
    const ended = chunks(await first.text());
    expect(ended.at(-1)?.status).toBe('stopped');
    expect(ended.at(-1)!.current).toBeLessThan(250);
  });

  it('a refused key fails the run with the reason and counts nothing', async () => {
    await call('PATCH', 'config', { token: owner, body: config({ api_secret: 'wrong' }) });
    const before = receiver.lines().length;
    const progress = chunks((await call('POST', 'run', { token: owner })).text);
    expect(progress.at(-1)).toMatchObject({ current: 0, max: 250, status: 'failed' });
    expect(progress.at(-1)?.error).toMatch(/refused the API key and secret \(401/);
    expect(receiver.lines().length).toBe(before);
  });

  it('never shows what another server answered, and checks every redirect against the address rules', async () => {
    let hits = 0;
    const other: Server = createServer((req, res) => {
      if (req.url?.startsWith('/redirect')) {
        // 127.0.0.2 is a loopback address the operator did not allow.
        res.writeHead(307, { location: `http://127.0.0.2:${(other.address() as AddressInfo).port}/inside/loki/api/v1/push` }).end();
        return;
      }
      if (req.url?.startsWith('/inside')) hits += 1;
      res.writeHead(400, { 'content-type': 'text/plain' }).end('INTERNAL-PAGE-CONTENT verification link https://example.com/verify?code=1');
    });
    await new Promise<void>((resolve) => other.listen(0, '0.0.0.0', resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      expect((await call('PATCH', 'config', { token: owner, body: config({ url: `http://127.0.0.1:${port}/echo` }) })).status).toBe(200);
      const echoed = chunks((await call('POST', 'run', { token: owner })).text).at(-1);
      expect(echoed).toMatchObject({ status: 'failed', current: 0 });
      expect(echoed?.error).toMatch(/answered 400/);
      expect(echoed?.error).not.toMatch(/INTERNAL-PAGE-CONTENT|verification/);

      expect((await call('PATCH', 'config', { token: owner, body: config({ url: `http://127.0.0.1:${port}/redirect` }) })).status).toBe(200);
      const redirected = chunks((await call('POST', 'run', { token: owner })).text).at(-1);
      expect(redirected).toMatchObject({ status: 'failed', current: 0 });
      expect(redirected?.error).toMatch(/not allowed/);
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
