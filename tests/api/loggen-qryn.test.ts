import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { createTokenMinter } from '../support/mint-token';
import { enableQryn, type EnabledQryn } from '../support/qryn';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// Loggen into the project's real qryn instance: the gateway checks the key, the store keeps the lines, the stats
// count them and a Loki read returns them as Loggen formatted them. A wrong secret stores and counts nothing.

let platform: TestPlatform;
let qryn: EnabledQryn;
let owner: string;

const monthStart = () => {
  const now = new Date();
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000);
};

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${platform.url}/api/${path}${path.includes('?') ? '&' : '?'}project_id=${qryn.projectId}`, {
    method,
    headers: { authorization: `Bearer ${owner}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const logsCount = async () => {
  const { text } = await api('GET', `integrations/qryn/metrics?start=${monthStart()}&end=${Math.floor(Date.now() / 1000) + 60}`);
  return Number((JSON.parse(text) as { logsRows: number; logs_rows?: number }).logs_rows ?? JSON.parse(text).logsRows);
};

const checkoutLines = async () => {
  const params = new URLSearchParams({ query: '{app="checkout"}', limit: '5000', start: `${Date.now() - 3_600_000}000000`, end: `${Date.now() + 60_000}000000` });
  const response = await fetch(`${qryn.url}/loki/api/v1/query_range?${params}`, { headers: { authorization: qryn.basic } });
  const body = (await response.json()) as { data: { result: { stream: Record<string, string>; values: [string, string][] }[] } };
  return body.data.result.flatMap((s) => s.values.map(([, line]) => line));
};

const config = (secret: string) => ({
  url: qryn.url,
  headers: [],
  api_key: qryn.apiKey,
  api_secret: secret,
  labels: [{ key: 'app', value: 'checkout' }],
  rate: 50,
  timeout: '5s',
  log_config: {
    format: 'logfmt',
    structure: [
      { name: 'level', expression: '{{app.level}}' },
      { name: 'method', expression: '{{http.method}}' },
      { name: 'status', expression: '{{http.status}}' },
    ],
  },
  enable_metrics: false,
  traces: { enabled: false, custom: false, spans: [] },
});

beforeAll(async () => {
  platform = await startTestPlatform({ embedded: true });
  const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
  const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
  qryn = await enableQryn(platform, projectId, demo.id, acme);
  await createIntegration(platform.db, { projectId, productSlug: 'loggen', status: 'trial', creatorUserId: demo.id, trialDays: 14 });
  owner = await (await createTokenMinter(platform.db, platform.config))(demo, { organizationId: acme });
});
afterAll(async () => platform?.stop());

describe('Loggen ships into the project qryn instance', () => {
  it('starts from the project instance: its address and key, and a write token qryn made for Loggen', async () => {
    const defaults = JSON.parse((await api('GET', 'integrations/loggen/config')).text);
    expect(defaults).toMatchObject({ url: qryn.url, api_key: qryn.apiKey });
    expect(defaults.api_secret).toMatch(/^qt_/);
    // Made once: reading again answers the same saved configuration.
    expect(JSON.parse((await api('GET', 'integrations/loggen/config')).text).api_secret).toBe(defaults.api_secret);
    const tokens = JSON.parse((await api('GET', 'integrations/qryn/tokens')).text) as { name: string; scope: string }[];
    expect(tokens.filter((t) => t.name === 'Loggen')).toHaveLength(1);
  });

  it('rate 50 for 5 s with the default credentials: 250 logfmt lines accepted, counted by the stats and returned by a Loki read', async () => {
    const before = await logsCount();
    const defaults = JSON.parse((await api('GET', 'integrations/loggen/config')).text);
    expect((await api('PATCH', 'integrations/loggen/config', config(defaults.api_secret))).status).toBe(200);
    const run = await api('POST', 'integrations/loggen/run');
    const last = JSON.parse(run.text.trim().split('\n').at(-1)!);
    expect(last).toEqual({ current: 250, max: 250, status: 'done' });
    expect((await logsCount()) - before).toBe(250);
    const lines = await checkoutLines();
    expect(lines).toHaveLength(250);
    for (const line of lines) expect(line).toMatch(/^level=(debug|info|warn|error) method=[A-Z]+ status=\d{3}$/);
  });

  it('a wrong secret: the run fails with the gateway refusal, and nothing more is stored', async () => {
    const before = await logsCount();
    await api('PATCH', 'integrations/loggen/config', config('not-the-secret'));
    const run = await api('POST', 'integrations/loggen/run');
    const last = JSON.parse(run.text.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ current: 0, max: 250, status: 'failed' });
    expect(last.error).toMatch(/refused the API key and secret \(401/);
    expect(await logsCount()).toBe(before);
  });
});
