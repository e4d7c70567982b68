import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { createTokenMinter, type TokenMinter } from '../support/mint-token';
import { deleteToken, hashSecret, insertToken, updateCredentials } from '../../server/products/qryn/instances/qryn-repository';
import { newApiKey, newSecret, newToken } from '../../server/products/qryn/qryn-backend';
import { removeMember } from '../../server/db/repositories/organizations-repository';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { TAIL_CLOSE_REVOKED, TAIL_CLOSE_TOKEN_EXPIRED, TAIL_REVOKED_REASON, TAIL_TOKEN_EXPIRED_REASON } from '../../contract/qryn-tail';

// An open live tail's credential is checked again every QRYN_AUTH_CACHE_MS: a deleted token, rotated keys and a
// removed member close it with TAIL_CLOSE_REVOKED, a console token past its expiry with TAIL_CLOSE_TOKEN_EXPIRED,
// each within twice the auth cache's time (waited for with a bound that adds a loaded machine's slack); a tail whose
// credential holds stays open.

const AUTH_CACHE_MS = 500;
/** Twice the auth cache's time, and slack for a loaded machine. */
const CLOSE_BOUND_MS = 2 * AUTH_CACHE_MS + 5_000;

let platform: TestPlatform;
let qryn: EnabledQryn;
let mint: TokenMinter;
let acmeId: number;
const previous = process.env.QRYN_AUTH_CACHE_MS;

beforeAll(async () => {
  process.env.QRYN_AUTH_CACHE_MS = String(AUTH_CACHE_MS);
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  mint = await createTokenMinter(platform.db, platform.config);
  acmeId = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  if (previous === undefined) delete process.env.QRYN_AUTH_CACHE_MS;
  else process.env.QRYN_AUTH_CACHE_MS = previous;
});

interface OpenTail {
  ws: WebSocket;
  /** The close frame's code and reason, or undefined while open. */
  closed(): { code: number; reason: string } | undefined;
}

function openTail(authorization: string): Promise<OpenTail> {
  const url = `${qryn.url.replace(/^http/, 'ws')}/loki/api/v1/tail?${new URLSearchParams({ query: '{app="recheck"}' })}`;
  const ws = new WebSocket(url, { headers: { authorization } });
  let closed: { code: number; reason: string } | undefined;
  ws.on('close', (code, reason) => (closed = { code, reason: String(reason) }));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed: () => closed }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Polls until the tail is closed, failing past CLOSE_BOUND_MS. */
async function closeOf(tail: OpenTail): Promise<{ code: number; reason: string }> {
  const until = Date.now() + CLOSE_BOUND_MS;
  while (!tail.closed()) {
    if (Date.now() > until) throw new Error(`the tail is still open ${CLOSE_BOUND_MS} ms after the revocation`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return tail.closed()!;
}

/** Stays open over a few re-checks (a poll over three auth cache times). */
async function staysOpen(tail: OpenTail): Promise<void> {
  const until = Date.now() + 3 * AUTH_CACHE_MS;
  while (Date.now() < until) {
    expect(tail.closed()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('closes a tail whose read token is deleted, and keeps one whose token holds', async () => {
  const kept = newToken();
  const deleted = newToken();
  await insertToken(platform.db, { instanceId: qryn.instanceId, name: 'kept', scope: 'read', token: kept, creatorUserId: null });
  const row = await insertToken(platform.db, { instanceId: qryn.instanceId, name: 'deleted', scope: 'read', token: deleted, creatorUserId: null });
  const keptTail = await openTail(`Bearer ${kept}`);
  const tail = await openTail(`Bearer ${deleted}`);
  await staysOpen(tail);
  await deleteToken(platform.db, qryn.instanceId, row.id);
  qryn.backend.invalidate(qryn.instanceId);
  expect(await closeOf(tail)).toEqual({ code: TAIL_CLOSE_REVOKED, reason: TAIL_REVOKED_REASON });
  expect(keptTail.closed()).toBeUndefined();
  keptTail.ws.close();
}, 60_000);

it('closes a tail opened with the API key and secret when the keys are rotated', async () => {
  const tail = await openTail(qryn.basic);
  await staysOpen(tail);
  const apiKey = newApiKey();
  const apiSecret = newSecret();
  await updateCredentials(platform.db, qryn.instanceId, apiKey, hashSecret(apiSecret));
  qryn.backend.invalidate(qryn.instanceId);
  expect(await closeOf(tail)).toEqual({ code: TAIL_CLOSE_REVOKED, reason: TAIL_REVOKED_REASON });
  qryn.basic = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`;
}, 60_000);

it("closes a console sign-in's tail as expired when its token's time is up", async () => {
  const dev = (await findUserByEmail(platform.db, 'dev@example.com'))!;
  const token = await mint(dev, { organizationId: acmeId, expiresIn: 3 });
  const tail = await openTail(`Bearer ${token}`);
  // The token holds for its first seconds, then the next check finds it expired (the wait bound adds those seconds).
  const until = Date.now() + 3_000 + CLOSE_BOUND_MS;
  while (!tail.closed() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(tail.closed()).toEqual({ code: TAIL_CLOSE_TOKEN_EXPIRED, reason: TAIL_TOKEN_EXPIRED_REASON });
}, 60_000);

it('closes a member\'s tail as revoked when the member is removed from the organization', async () => {
  const dev = (await findUserByEmail(platform.db, 'dev@example.com'))!;
  const token = await mint(dev, { organizationId: acmeId });
  const tail = await openTail(`Bearer ${token}`);
  await staysOpen(tail);
  await removeMember(platform.db, acmeId, dev.id);
  expect(await closeOf(tail)).toEqual({ code: TAIL_CLOSE_REVOKED, reason: TAIL_REVOKED_REASON });
}, 60_000);
