import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_EXAMPLES } from '../../contract/qryn-examples';
import { NOT_A_MEMBER_MESSAGE } from '../../server/products/qryn/gateway/gateway-session';
import { startQrynInAcme, stopQrynInAcme, type QrynInAcme } from '../support/qryn-in-acme';

// The console's sign-in as a credential of the project's qryn instance: members read with the access token the
// console holds (read-only members included), writing needs a member who may change the project, a non-member or
// a token in another account is 403, an invalid token 401; and GET projects/{id}/account names the account a shared
// project lives in.

let setup: QrynInAcme;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  setup = await startQrynInAcme({ kind: 'pglite' });
  const acme = { organizationId: setup.acmeId };
  tokens.owner = setup.owner;
  tokens.dev = await setup.api.tokenFor('dev@example.com', acme);
  tokens.viewer = await setup.api.tokenFor('viewer@example.com', acme);
  tokens.stranger = await setup.api.tokenFor('new@example.com');
  tokens.ownerPersonal = await setup.api.tokenFor('demo@example.com');
  tokens.expired = await setup.api.tokenFor('dev@example.com', { ...acme, expiresIn: -60 });
  tokens.devPersonal = await setup.api.tokenFor('dev@example.com');
}, 120_000);

afterAll(() => stopQrynInAcme(setup));

async function gateway(path: string, token: string, init: { body?: string; view?: boolean; url?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.view) headers['x-qryn-view'] = '1';
  if (init.body) headers['content-type'] = 'application/json';
  const response = await fetch(`${init.url ?? setup.gateway.url}${path}`, { method: init.body ? 'POST' : 'GET', headers, body: init.body });
  return { status: response.status, text: await response.text(), challenge: response.headers.get('www-authenticate') };
}

const push = (line: string) => JSON.stringify({ streams: [{ stream: { app: 'session' }, values: [[`${Date.now()}000000`, line]] }] });

describe('the console sign-in on the qryn gateway', () => {
  it('lets every member of the project read, read-only members included', async () => {
    for (const who of ['owner', 'dev', 'viewer']) {
      const labels = await gateway('/loki/api/v1/labels', tokens[who]!, { view: true });
      expect(labels.status, `${who}: ${labels.text}`).toBe(200);
      expect(JSON.parse(labels.text).status).toBe('success');
      const prom = await gateway('/api/v1/query?query=vector(1)', tokens[who]!, { view: true });
      expect(prom.status, `${who}: ${prom.text}`).toBe(200);
    }
  });

  it('lets a member who may change the project write, and refuses a read-only member with 403', async () => {
    expect((await gateway('/loki/api/v1/push', tokens.dev!, { body: push('from dev') })).status).toBe(204);
    const refused = await gateway('/loki/api/v1/push', tokens.viewer!, { body: push('from viewer') });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('may only read');
  });

  it('refuses a non-member and a token of another account with 403', async () => {
    for (const who of ['stranger', 'ownerPersonal']) {
      const refused = await gateway('/loki/api/v1/labels', tokens[who]!, { view: true });
      expect(refused.status, who).toBe(403);
      expect(refused.text).toContain(NOT_A_MEMBER_MESSAGE);
    }
  });

  it('answers an instance id that does not exist as another account\'s instance, and a bad token alike on both', async () => {
    const missing = setup.gateway.url.replace(/[0-9a-f]+$/, 'f'.repeat(32));
    expect(missing).not.toBe(setup.gateway.url);
    const member = await gateway('/loki/api/v1/labels', tokens.dev!, { view: true, url: missing });
    expect(member.status).toBe(403);
    expect(member.text).toContain(NOT_A_MEMBER_MESSAGE);
    const forged = `${tokens.dev!.slice(0, -4)}AAAA`;
    const onMissing = await gateway('/loki/api/v1/labels', forged, { view: true, url: missing });
    const onReal = await gateway('/loki/api/v1/labels', forged, { view: true });
    expect(onMissing.status).toBe(401);
    expect(onMissing.text).toBe(onReal.text);
  });

  it('refuses an invalid or expired token with 401, with the challenge only without x-qryn-view', async () => {
    const forged = `${tokens.dev!.slice(0, -4)}AAAA`;
    const plain = await gateway('/loki/api/v1/labels', forged);
    expect(plain.status).toBe(401);
    expect(plain.challenge).toBe('Basic realm="qryn"');
    const view = await gateway('/loki/api/v1/labels', tokens.expired!, { view: true });
    expect(view.status).toBe(401);
    expect(view.challenge).toBeNull();
    expect(view.text).toContain('expired');
  });

  it('needs the instance in the path: a sign-in names no instance', async () => {
    const relative = await gateway('/loki/api/v1/labels', tokens.owner!, { url: setup.gateway.url.replace(/\/[0-9a-f]+$/, '') });
    expect(relative.status).toBe(401);
  });
});

describe("the Overview's curl example without the kept secret", () => {
  it('runs as shown with a write token in the secret\'s place, as the Overview says', async () => {
    const created = await setup.api.request('POST', 'integrations/qryn/tokens', { token: setup.owner, query: { project_id: setup.productionId }, body: { name: `overview curl ${Date.now()}`, scope: 'write' } });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const token = created.body.token.token as string;
    const curl = SHELL_EXAMPLES.find((example) => example.id === 'logs--curl')!;
    await promisify(execFile)('bash', ['-c', curl.command({ url: setup.gateway.url, apiKey: setup.qryn.apiKey, apiSecret: token })]);
    const read = await gateway(`/loki/api/v1/query_range?query=${encodeURIComponent('{job="curl-example"}')}`, setup.owner, { view: true });
    expect(read.status).toBe(200);
    expect(read.text).toContain('Hello from curl');
  });
});

describe('GET projects/{id}/account', () => {
  it("names the organization of a project the caller sees there, from any account's token", async () => {
    const answer = await setup.api.request('GET', `projects/${setup.productionId}/account`, { token: tokens.devPersonal });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ organization_id: setup.acmeId });
  });

  it('is 404 for a project the caller sees in no account, 400 for a malformed id, 401 without a token', async () => {
    expect((await setup.api.request('GET', `projects/${setup.productionId}/account`, { token: tokens.stranger })).status).toBe(404);
    const malformed = await setup.api.request('GET', 'projects/abc/account', { token: tokens.devPersonal });
    expect(malformed.status).toBe(400);
    expect(malformed.body.description).toContain('project id');
    expect((await setup.api.request('GET', `projects/${setup.productionId}/account`)).status).toBe(401);
  });
});
