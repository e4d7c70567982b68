import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { DRILLDOWN_OFF_MESSAGE } from '../../server/products/qryn/gateway/gateway';

// The Config page's two server-side switches change what the gateway does (docs/qryn.md, Settings):
// - cache: label and series lookups are answered from a 30 s cache (x-qryn-cache: miss, then hit; off when off);
// - logs drilldown: Loki's index volume call answers only while the switch is on.
// And GET config tells a trial account (no payment method) apart, which hides the paid Config cards.

let platform: TestPlatform;
let qryn: EnabledQryn;
let owner: string;
let projectId: number;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn, ownerToken: owner, projectId } = await enableQrynOnSeededProject(platform, 'Acme Staging'));
});
afterAll(async () => platform?.stop());

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${platform.url}/api/${path}?project_id=${projectId}`, {
    method,
    headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const read = (path: string) => fetch(`${qryn.url}${path}`, { headers: { authorization: qryn.basic } });

async function push(stream: Record<string, string>, line: string) {
  const response = await fetch(`${qryn.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization: qryn.basic, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [{ stream, values: [[`${Date.now()}000000`, line]] }] }),
  });
  expect(response.status).toBe(204);
}

const values = async (response: Response) => ((await response.json()) as { data: string[] }).data;

describe('server-side cache switch', () => {
  it('off: every lookup reads the store; on: the second identical lookup is a hit and does not see a newer series', async () => {
    expect((await api('PATCH', 'integrations/qryn/cache', { enabled: false })).status).toBe(200);
    await push({ job: 'cache-test', instance: 'a' }, 'one');
    const off = await read('/loki/api/v1/label/instance/values');
    expect(off.headers.get('x-qryn-cache')).toBe('off');
    expect(await values(off)).toContain('a');

    expect((await api('PATCH', 'integrations/qryn/cache', { enabled: true })).body.message).toBe('Server-side cache enabled');
    const miss = await read('/loki/api/v1/label/instance/values');
    expect(miss.headers.get('x-qryn-cache')).toBe('miss');
    await push({ job: 'cache-test', instance: 'b' }, 'two');
    const hit = await read('/loki/api/v1/label/instance/values');
    expect(hit.headers.get('x-qryn-cache')).toBe('hit');
    // The cached answer: 'b' arrived after it was taken.
    expect(await values(hit)).not.toContain('b');

    // Turning it off again reads the store at once.
    await api('PATCH', 'integrations/qryn/cache', { enabled: false });
    const fresh = await read('/loki/api/v1/label/instance/values');
    expect(fresh.headers.get('x-qryn-cache')).toBe('off');
    expect(await values(fresh)).toEqual(expect.arrayContaining(['a', 'b']));
  });

  it('Prometheus labels and series lookups are cached too', async () => {
    await api('PATCH', 'integrations/qryn/cache', { enabled: true });
    const first = await read('/api/v1/labels');
    expect(first.headers.get('x-qryn-cache')).toBe('miss');
    expect((await read('/api/v1/labels')).headers.get('x-qryn-cache')).toBe('hit');
    expect((await read(`/api/v1/series?${new URLSearchParams({ 'match[]': '{job="x"}' })}`)).headers.get('x-qryn-cache')).toBe('miss');
    await api('PATCH', 'integrations/qryn/cache', { enabled: false });
  });
});

describe('logs drilldown switch', () => {
  it('the index volume answers only while the switch is on, with bytes and lines per stream', async () => {
    await push({ job: 'volume-test', level: 'info' }, 'hello');
    await push({ job: 'volume-test', level: 'error' }, 'a longer line');
    // Loki aggregates by the selector's labels: naming level keeps one series per stream.
    const query = new URLSearchParams({ query: '{job="volume-test", level=~".+"}', start: `${Date.now() - 600_000}000000`, end: `${Date.now() + 60_000}000000` });

    expect((await api('PATCH', 'integrations/qryn/drilldown', { enabled: false })).body.message).toBe('Drilldown disabled');
    const off = await read(`/loki/api/v1/index/volume?${query}`);
    expect(off.status).toBe(404);
    expect(((await off.json()) as { error: string }).error).toBe(DRILLDOWN_OFF_MESSAGE);

    expect((await api('PATCH', 'integrations/qryn/drilldown', { enabled: true })).body.message).toBe('Drilldown enabled');
    const on = await read(`/loki/api/v1/index/volume?${query}`);
    expect(on.status).toBe(200);
    const body = (await on.json()) as { data: { resultType: string; result: { metric: Record<string, string>; value: [number, string]; lines: number }[] } };
    expect(body.data.resultType).toBe('vector');
    expect(body.data.result.map((r) => [r.metric.level, r.value[1], r.lines])).toEqual([
      ['error', String('a longer line'.length), 1],
      ['info', String('hello'.length), 1],
    ]);

    // A line filter is not a volume query.
    const filtered = await read(`/loki/api/v1/index/volume?${new URLSearchParams({ query: '{job="volume-test"} |= "x"' })}`);
    expect(filtered.status).toBe(400);
  });
});

describe('trial accounts', () => {
  it('GET config says whether the project has a payment method (Acme has a card: not a trial)', async () => {
    const config = await api('GET', 'integrations/qryn/config');
    expect(config.status).toBe(200);
    expect(config.body.trial).toBe(false);
    await platform.db.query(
      'UPDATE billing_accounts SET payment_method_id = NULL WHERE id = (SELECT o.billing_account_id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE p.id = $1)',
      [projectId],
    );
    const trial = await api('GET', 'integrations/qryn/config');
    expect(trial.body.trial).toBe(true);
  });
});
