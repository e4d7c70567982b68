import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Schema } from 'effect';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { eventually } from '../support/qryn';
import { hepPacket, sendTcp, sendUdp, sipInvite, sipResponse } from '../support/hepic';
import { CloudResourceList, EnableProductResponse, HepicPlanList, SELECT_PRICING_PLAN_MESSAGE, SELECT_STORAGE_MESSAGE } from '../../contract/stack';
import {
  AddHepicUsersBody,
  CANNOT_REMOVE_SELF_MESSAGE,
  CreateHepicTokenBody,
  CreateHepicTokenResponse,
  HEPIC_KEY_ITEM_LABEL,
  HepicConfig,
  KEY_ROTATED_MESSAGE,
  RotateHepicKeyResponse,
  HepicStatistics,
  HepicTokenList,
  HepicToggleBody,
  HepicUserList,
  ONLY_ADMINS_MESSAGE,
  ROLE_UPDATED_MESSAGE,
  STATISTICS_UNAVAILABLE_MESSAGE,
  SUPERADMIN_LOCKED_MESSAGE,
  TOKEN_CREATED_MESSAGE,
  TOKEN_NAME_REQUIRED_MESSAGE,
  TOKEN_TTL_MESSAGE,
  USER_ADDED_MESSAGE,
  USER_DELETED_MESSAGE,
  UpdateHepicRoleBody,
  configLoadErrorMessage,
} from '../../contract/hepic';
import { decodeInput } from '../../contract/common';
import { ErrorText } from '../../contract/errors';
import type { HepicBackend } from '../../server/products/hepic/hepic-backend';
import { findInstanceOfProject } from '../../server/products/hepic/hepic-repository';

// Hepic's API calls against the real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) and the real
// HEP endpoint: enable through the stack's call, HEP v3 packets (hep-js) with SIP over UDP and TCP move the
// statistics, wrong and expired keys are dropped, users and the role confirm, bad input (property-based).

const DAY_MS = 86_400_000;

describe.each(databaseTargets())('Hepic API ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let dev: string;
  let viewer: string;
  let acmeId: number;
  let productionId: number;
  let stagingId: number;
  let hepic: HepicBackend;
  /** The ingestion key from the enable answer (the only place it is ever shown). */
  let apiKey: string;

  beforeAll(async () => {
    api = await startApi(target, { products: true });
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    stagingId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    dev = await api.tokenFor('dev@example.com', { organizationId: acmeId });
    viewer = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
    hepic = api.products.get('hepic') as HepicBackend;
  }, 120_000);
  afterAll(async () => api?.close());

  const q = (extra: Record<string, string | number | boolean> = {}) => ({ project_id: productionId, ...extra });
  const statistics = async () => Schema.decodeUnknownSync(HepicStatistics)((await api.request('GET', 'integrations/hepic/statistics', { token: owner, query: q() })).body);

  it('plans and cloud resources answer the show-config shapes; the shared storage is offered without a cluster', async () => {
    const plans = Schema.decodeUnknownSync(HepicPlanList)((await api.request('GET', 'integrations/hepic/plans', { token: owner })).body);
    expect(plans.map((p) => p.id)).toEqual(['hepic-starter', 'hepic-business', 'hepic-own-storage']);
    expect(plans.every((p) => Number.isInteger(p.price) && p.price > 0)).toBe(true);
    const resources = Schema.decodeUnknownSync(CloudResourceList)((await api.request('GET', 'integrations/hepic/cloud/resources', { token: owner, query: q() })).body);
    expect(resources).toEqual([expect.objectContaining({ clickhouse_cluster_id: 'shared-local', kind: 'shared' })]);
    expect((await api.request('GET', 'integrations/hepic/plans')).status).toBe(401);
    const noProject = await api.request('GET', 'integrations/hepic/cloud/resources', { token: owner });
    expect(noProject.status).toBe(400);
    expect(noProject.body).toMatchObject({ message: 'Validation error', details: { project_id: ['The project id is missing'] } });
  });

  it('calls before enable answer the configuration error of the spec', async () => {
    const response = await api.request('GET', 'integrations/hepic/config', { token: owner, query: q() });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(configLoadErrorMessage(productionId));
  });

  it('POST integrations/hepic/ refuses a missing plan or storage per field and records nothing; a valid body enables it', async () => {
    const missing = await api.request('POST', 'integrations/hepic/', { token: owner, query: q(), body: { cluster_id: 'shared-local' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.price_id).toEqual([SELECT_PRICING_PLAN_MESSAGE]);
    const unknown = await api.request('POST', 'integrations/hepic/', { token: owner, query: q(), body: { price_id: 'gold', cluster_id: 'nowhere' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual({ price_id: [SELECT_PRICING_PLAN_MESSAGE], cluster_id: [SELECT_STORAGE_MESSAGE] });
    expect((await api.request('POST', 'integrations/hepic/', { token: viewer, query: q(), body: { price_id: 'hepic-starter', cluster_id: 'shared-local' } })).status).toBe(403);
    expect(await findInstanceOfProject(api.db, productionId)).toBeUndefined();

    const enabled = await api.request('POST', 'integrations/hepic/', { token: owner, query: q(), body: { price_id: 'hepic-starter', cluster_id: 'shared-local' } });
    expect(enabled.status).toBe(201);
    const body = Schema.decodeUnknownSync(EnableProductResponse)(enabled.body);
    expect(body.items).toEqual([
      { label: 'HEP Endpoint', value: `127.0.0.1:${hepic.listener()!.port}` },
      { label: HEPIC_KEY_ITEM_LABEL, value: expect.stringMatching(/^hep_[A-Za-z0-9_-]{24}$/) },
    ]);
    apiKey = body.items[1].value;
    const config = Schema.decodeUnknownSync(HepicConfig)((await api.request('GET', 'integrations/hepic/config', { token: owner, query: q() })).body);
    expect(config).toMatchObject({ price_id: 'hepic-starter', clickhouse_cluster_id: 'shared-local', auto_add: false, ingress_url: body.items[0].value });
    // Later reads carry only the hint: the key's prefix and last four characters.
    expect(config.api_key_hint).toBe(`${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`);
    expect(JSON.stringify(config)).not.toContain(apiKey);
    // The one who enabled it is its superadmin; nobody else is listed, so others cannot read it.
    const users = Schema.decodeUnknownSync(HepicUserList)((await api.request('GET', 'integrations/hepic/users', { token: owner, query: q() })).body);
    expect(users.map((u) => [u.email, u.group])).toEqual([['demo@example.com', 'superadmin']]);
    expect((await api.request('GET', 'integrations/hepic/config', { token: dev, query: q() })).status).toBe(403);
    // Project deletion is refused while Hepic is active.
    const deletion = await api.request('DELETE', 'projects', { token: owner, query: { project_id: productionId } });
    expect(deletion.status).toBe(409);
    expect(deletion.body.description).toBe(ErrorText.projectDeletionHepicActive);
  });

  it('HEP v3 packets with SIP over UDP and TCP carrying the token are stored and move the statistics', async () => {
    const token = apiKey;
    const port = hepic.listener()!.port;
    const before = await statistics();
    expect(before).toMatchObject({ storage_usage_bytes: 0, packets: 0, storage_quota: 10_000_000_000, rotation_point_sec: null });

    await sendUdp(port, [hepPacket(sipInvite('udp-call@test'), token), hepPacket(sipResponse('udp-call@test', 180, 'Ringing'), token)]);
    // Over TCP the packets follow one another on the stream; the writes cut them at odd places.
    const stream = Buffer.concat([hepPacket(sipInvite('tcp-call@test'), token, { protocol: 6 }), hepPacket(sipResponse('tcp-call@test'), token, { protocol: 6 })]);
    await sendTcp(port, [stream.subarray(0, 7), stream.subarray(7, 300), stream.subarray(300)]);

    const after = await eventually(async () => {
      const s = await statistics();
      return s.packets === 4 ? s : undefined;
    });
    expect(after.storage_usage_bytes).toBeGreaterThan(0);
    expect(after.storage_usage_percentage).toBeGreaterThan(0);
    const today = new Date(api.clock.nowMs()).toISOString().slice(0, 10);
    expect(after.rotation_point_sec).toBe(Date.parse(`${today}T00:00:00Z`) / 1000);

    // What was stored is what was sent: the SIP start lines and dialog headers, per transport.
    const instance = (await findInstanceOfProject(api.db, productionId))!;
    const storage = await hepic.storageOf(instance);
    const rows = await storage.client.query<{ transport: string; sip_method: string; sip_status: number; call_id: string; from_user: string; src_ip: string; capture_id: number }>(
      `SELECT transport, sip_method, sip_status, call_id, from_user, src_ip, capture_id FROM ${instance.database_name}.hep_packets ORDER BY transport, call_id, sip_status`,
    );
    expect(rows.map((r) => [r.transport, r.call_id, r.sip_method, Number(r.sip_status)])).toEqual([
      ['tcp', 'tcp-call@test', 'INVITE', 0],
      ['tcp', 'tcp-call@test', '', 200],
      ['udp', 'udp-call@test', 'INVITE', 0],
      ['udp', 'udp-call@test', '', 180],
    ]);
    expect(rows[0]).toMatchObject({ from_user: 'alice', src_ip: '10.0.0.1' });
    expect(Number(rows[0].capture_id)).toBe(2001);
  });

  it('packets with a wrong key, no key, or garbage are dropped and not counted; the listener keeps serving', async () => {
    const token = apiKey;
    const port = hepic.listener()!.port;
    const counted = (await statistics()).packets;
    const dropped = hepic.listener()!.counters.unauthorized;
    await sendUdp(port, [hepPacket(sipInvite('wrong'), 'hep_not-a-token'), hepPacket(sipInvite('none'), undefined), Buffer.from('garbage'), Buffer.alloc(0)]);
    await sendTcp(port, [hepPacket(sipInvite('wrong-tcp'), 'nope')]);
    await sendTcp(port, [Buffer.from('GET / HTTP/1.1\r\n\r\n')]);
    await eventually(async () => (hepic.listener()!.counters.unauthorized >= dropped + 3 ? true : undefined));
    await sendUdp(port, [hepPacket(sipInvite('after-garbage'), token)]);
    const after = await eventually(async () => {
      const s = await statistics();
      return s.packets === counted + 1 ? s : undefined;
    });
    expect(after.packets).toBe(counted + 1);
  });

  it('rotating the ingestion key: the new key is shown once and accepted, the old one refused at once; only writable hepic admins may', async () => {
    const port = hepic.listener()!.port;
    const old = apiKey;
    // The old key is accepted (and now cached by the listener) before the rotation.
    const counted = (await statistics()).packets;
    await sendUdp(port, [hepPacket(sipInvite('before-rotation'), old)]);
    await eventually(async () => ((await statistics()).packets === counted + 1 ? true : undefined));

    // dev is not on the list (403); the viewer is read-only (403); without project_id: 400.
    expect((await api.request('POST', 'integrations/hepic/key/rotate', { token: dev, query: q() })).status).toBe(403);
    expect((await api.request('POST', 'integrations/hepic/key/rotate', { token: viewer, query: q() })).status).toBe(403);
    expect((await api.request('POST', 'integrations/hepic/key/rotate', { token: owner })).status).toBe(400);

    const rotated = await api.request('POST', 'integrations/hepic/key/rotate', { token: owner, query: q() });
    expect(rotated.status).toBe(200);
    const answer = Schema.decodeUnknownSync(RotateHepicKeyResponse)(rotated.body);
    expect(answer.message).toBe(KEY_ROTATED_MESSAGE);
    expect(answer.api_key).toMatch(/^hep_/);
    expect(answer.api_key).not.toBe(old);
    apiKey = answer.api_key;
    const config = Schema.decodeUnknownSync(HepicConfig)((await api.request('GET', 'integrations/hepic/config', { token: owner, query: q() })).body);
    expect(config.api_key_hint).toBe(answer.api_key_hint);
    expect(JSON.stringify(await api.db.query('SELECT * FROM hepic_instances'))).not.toContain(apiKey);

    const refused = hepic.listener()!.counters.unauthorized;
    await sendUdp(port, [hepPacket(sipInvite('old-key'), old)]);
    await eventually(async () => (hepic.listener()!.counters.unauthorized === refused + 1 ? true : undefined));
    await sendTcp(port, [hepPacket(sipInvite('new-key'), apiKey, { protocol: 6 })]);
    await eventually(async () => ((await statistics()).packets === counted + 2 ? true : undefined));
  });

  it('scoped tokens: read scope, TTL default 1 day, accepted by the endpoint until they expire', async () => {
    const created = await api.request('POST', 'integrations/hepic/tokens', { token: owner, query: q(), body: { name: 'Edge proxy', scope: 'read', ttl_days: 1 } });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe(TOKEN_CREATED_MESSAGE);
    const scoped = Schema.decodeUnknownSync(CreateHepicTokenResponse)(created.body).token.token!;
    expect(scoped).toMatch(/^hep_/);
    expect(created.body.token.token_hint).toBe(`${scoped.slice(0, 8)}…${scoped.slice(-4)}`);
    expect(Date.parse(created.body.token.expires) - Date.parse(created.body.token.created_at)).toBe(DAY_MS);
    const listed = Schema.decodeUnknownSync(HepicTokenList)((await api.request('GET', 'integrations/hepic/tokens', { token: owner, query: q({ active: true }) })).body);
    expect(listed.map((t) => [t.name, t.scope, t.status, t.token, t.token_hint])).toEqual([['Edge proxy', 'read', 'active', null, created.body.token.token_hint]]);
    // The database holds the token's hash and hint, nowhere the token itself (nor the instance's key).
    const instanceRows = await api.db.query('SELECT * FROM hepic_instances');
    const tokenRows = await api.db.query('SELECT * FROM hepic_tokens');
    expect(instanceRows).toHaveLength(1);
    expect(tokenRows).toHaveLength(1);
    for (const plain of [scoped, apiKey]) expect(JSON.stringify([instanceRows, tokenRows])).not.toContain(plain);
    expect(tokenRows[0]).toMatchObject({ token_hash: createHash('sha256').update(scoped).digest('hex') });
    expect(instanceRows[0]).toMatchObject({ api_key_hash: createHash('sha256').update(apiKey).digest('hex') });

    const port = hepic.listener()!.port;
    const counted = (await statistics()).packets;
    await sendUdp(port, [hepPacket(sipInvite('scoped'), scoped)]);
    await eventually(async () => ((await statistics()).packets === counted + 1 ? true : undefined));

    // A day later the token has expired: no longer listed as active, and its packets are dropped.
    api.clock.advance(DAY_MS + 1000);
    expect((await api.request('GET', 'integrations/hepic/tokens', { token: owner, query: q({ active: true }) })).body).toEqual([]);
    expect((await api.request('GET', 'integrations/hepic/tokens', { token: owner, query: q() })).body[0].status).toBe('expired');
    const refused = hepic.listener()!.counters.unauthorized;
    await sendUdp(port, [hepPacket(sipInvite('expired'), scoped)]);
    await eventually(async () => (hepic.listener()!.counters.unauthorized === refused + 1 ? true : undefined));
    expect((await statistics()).packets).toBe(counted + 1);

    const blank = await api.request('POST', 'integrations/hepic/tokens', { token: owner, query: q(), body: { name: '  ', scope: 'read', ttl_days: 1 } });
    expect(blank.status).toBe(400);
    expect(blank.body.details.name).toEqual([TOKEN_NAME_REQUIRED_MESSAGE]);
    const ttl = await api.request('POST', 'integrations/hepic/tokens', { token: owner, query: q(), body: { name: 'x', scope: 'read', ttl_days: 0 } });
    expect(ttl.body.details.ttl_days).toEqual([TOKEN_TTL_MESSAGE]);
    const write = await api.request('POST', 'integrations/hepic/tokens', { token: owner, query: q(), body: { name: 'x', scope: 'write', ttl_days: 1 } });
    expect(write.status).toBe(400);
    expect(Object.keys(write.body.details)).toEqual(['scope']);
  });

  it('users: admins add, re-group (confirm first) and remove; nobody removes themselves; others are refused', async () => {
    const devUser = await api.user('dev@example.com');
    const candidates = (await api.request('GET', 'integrations/hepic/users/candidates', { token: owner, query: q() })).body;
    expect(candidates.map((c: { email: string }) => c.email)).toEqual(expect.arrayContaining(['dev@example.com', 'viewer@example.com']));
    const added = await api.request('POST', 'integrations/hepic/users', { token: owner, query: q(), body: { users: [{ user_id: devUser.id, group: 'user' }] } });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe(USER_ADDED_MESSAGE);
    const again = await api.request('POST', 'integrations/hepic/users', { token: owner, query: q(), body: { users: [{ user_id: devUser.id, group: 'user' }] } });
    expect(again.status).toBe(400);
    expect(again.body.details).toEqual({ user_id: ['This person is already a hepic user.'] });

    // Without has_confirmed: the confirm prompt, nothing changes.
    const prompt = await api.request('PATCH', 'integrations/hepic/users/role', { token: owner, query: q(), body: { users: [{ user_id: devUser.id, group: 'admin' }] } });
    expect(prompt.body).toEqual({ message: 'You will change the role of Dana Developer to admin.', confirm: true, user_id: devUser.id, group: 'admin' });
    const groupOf = async (email: string) =>
      (Schema.decodeUnknownSync(HepicUserList)((await api.request('GET', 'integrations/hepic/users', { token: owner, query: q() })).body)).find((u) => u.email === email)?.group;
    expect(await groupOf('dev@example.com')).toBe('user');

    // dev@ is a user, not an admin: the config is theirs to read, changes are refused.
    expect((await api.request('GET', 'integrations/hepic/config', { token: dev, query: q() })).status).toBe(200);
    const demoUser = await api.user('demo@example.com');
    for (const [method, path, body, query] of [
      ['POST', 'integrations/hepic/users', { users: [{ user_id: demoUser.id, group: 'user' }] }, q()],
      ['PATCH', 'integrations/hepic/users/role', { users: [{ user_id: demoUser.id, group: 'user' }], has_confirmed: true }, q()],
      ['DELETE', 'integrations/hepic/users', undefined, q({ user_id: demoUser.id })],
      ['POST', 'integrations/hepic/auto-add', { enabled: true }, q()],
    ] as const) {
      const refused = await api.request(method, path, { token: dev, query, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.description).toBe(ONLY_ADMINS_MESSAGE);
    }

    const confirmed = await api.request('PATCH', 'integrations/hepic/users/role', { token: owner, query: q(), body: { users: [{ user_id: devUser.id, group: 'admin' }], has_confirmed: true } });
    expect(confirmed.body).toMatchObject({ message: ROLE_UPDATED_MESSAGE, confirm: false, group: 'admin' });
    expect(await groupOf('dev@example.com')).toBe('admin');
    // The cancel intent sends the previous group without the flag: the confirm state again, nothing changes.
    const cancel = await api.request('PATCH', 'integrations/hepic/users/role', { token: owner, query: q(), body: { users: [{ user_id: devUser.id, group: 'user' }], has_confirmed: false } });
    expect(cancel.body.confirm).toBe(true);
    expect(await groupOf('dev@example.com')).toBe('admin');

    const self = await api.request('DELETE', 'integrations/hepic/users', { token: owner, query: q({ user_id: demoUser.id }) });
    expect(self.status).toBe(400);
    expect(self.body.details.user_id).toEqual([CANNOT_REMOVE_SELF_MESSAGE]);
    // The superadmin (who enabled it) is locked.
    const regroupSuperadmin = await api.request('PATCH', 'integrations/hepic/users/role', { token: dev, query: q(), body: { users: [{ user_id: demoUser.id, group: 'user' }], has_confirmed: true } });
    expect(regroupSuperadmin.status).toBe(400);
    expect(regroupSuperadmin.body.details).toEqual({ group: [SUPERADMIN_LOCKED_MESSAGE] });
    const removeSuperadmin = await api.request('DELETE', 'integrations/hepic/users', { token: dev, query: q({ user_id: demoUser.id }) });
    expect(removeSuperadmin.status).toBe(400);
    expect(removeSuperadmin.body.details).toEqual({ user_id: [SUPERADMIN_LOCKED_MESSAGE] });

    const removed = await api.request('DELETE', 'integrations/hepic/users', { token: owner, query: q({ user_id: devUser.id }) });
    expect(removed.body.message).toBe(USER_DELETED_MESSAGE);
    expect(await groupOf('dev@example.com')).toBeUndefined();
    expect((await api.request('GET', 'integrations/hepic/config', { token: dev, query: q() })).status).toBe(403);

    // Auto-add: project members join as users.
    const on = await api.request('POST', 'integrations/hepic/auto-add', { token: owner, query: q(), body: { enabled: true } });
    expect(on.body.enabled).toBe(true);
    expect(await groupOf('dev@example.com')).toBe('user');
    await api.request('POST', 'integrations/hepic/auto-add', { token: owner, query: q(), body: { enabled: false } });
    // Personal mode cannot manage users.
    const personal = await api.tokenFor('demo@example.com');
    expect((await api.request('POST', 'integrations/hepic/users', { token: personal, query: q(), body: { users: [{ user_id: devUser.id, group: 'user' }] } })).status).toBe(404);
  });

  it('read-only members on the list see the config without the token and cannot create tokens', async () => {
    const viewerUser = await api.user('viewer@example.com');
    await api.request('POST', 'integrations/hepic/users', { token: owner, query: q(), body: { users: [{ user_id: viewerUser.id, group: 'user' }] } });
    const config = await api.request('GET', 'integrations/hepic/config', { token: viewer, query: q() });
    expect(config.status).toBe(200);
    expect(config.body.api_key_hint).toBeNull();
    expect((await api.request('GET', 'integrations/hepic/statistics', { token: viewer, query: q() })).status).toBe(200);
    expect((await api.request('POST', 'integrations/hepic/tokens', { token: viewer, query: q(), body: { name: 'x', scope: 'read', ttl_days: 1 } })).status).toBe(403);
    expect((await api.request('GET', 'integrations/hepic/tokens', { token: viewer, query: q() })).status).toBe(403);
    // Even as a hepic admin, a read-only member cannot rotate the ingestion key.
    const instance = (await findInstanceOfProject(api.db, productionId))!;
    await api.db.query("UPDATE integration_users SET role = 'admin' WHERE integration_id = $1 AND user_id = $2", [instance.integration_id, viewerUser.id]);
    expect((await api.request('POST', 'integrations/hepic/key/rotate', { token: viewer, query: q() })).status).toBe(403);
    await api.db.query("UPDATE integration_users SET role = 'user' WHERE integration_id = $1 AND user_id = $2", [instance.integration_id, viewerUser.id]);
    expect((await findInstanceOfProject(api.db, productionId))!.api_key_hash).toBe(instance.api_key_hash);
  });

  it('bad bodies and queries are 400, never 5xx, and change nothing', async () => {
    const snapshot = async () => ({
      users: (await api.request('GET', 'integrations/hepic/users', { token: owner, query: q() })).body,
      tokens: (await api.request('GET', 'integrations/hepic/tokens', { token: owner, query: q() })).body,
      config: (await api.request('GET', 'integrations/hepic/config', { token: owner, query: q() })).body,
    });
    const before = await snapshot();
    const bad = (schema: Schema.Top & { readonly DecodingServices: never }, arbitrary: fc.Arbitrary<unknown>) => arbitrary.filter((body) => !decodeInput(schema, body).ok);
    const users = fc.array(fc.record({ user_id: fc.oneof(fc.string(), fc.uuid(), fc.integer()), group: fc.oneof(fc.string(), fc.constantFrom('superadmin', 'root')) }), { maxLength: 3 });
    const calls: [string, string, fc.Arbitrary<unknown>][] = [
      ['POST', 'integrations/hepic/tokens', bad(CreateHepicTokenBody, fc.oneof(fc.anything(), fc.record({ name: fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 65 }), fc.integer()), scope: fc.string(), ttl_days: fc.oneof(fc.integer(), fc.double(), fc.string()) })))],
      ['POST', 'integrations/hepic/users', bad(AddHepicUsersBody, fc.oneof(fc.anything(), fc.record({ users })))],
      ['PATCH', 'integrations/hepic/users/role', bad(UpdateHepicRoleBody, fc.oneof(fc.anything(), fc.record({ users, has_confirmed: fc.oneof(fc.boolean(), fc.string()) })))],
      ['POST', 'integrations/hepic/auto-add', bad(HepicToggleBody, fc.oneof(fc.anything(), fc.record({ enabled: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) })))],
      ['PATCH', 'integrations/hepic/metric', bad(HepicToggleBody, fc.record({ enabled: fc.oneof(fc.string(), fc.integer()) }))],
      ['POST', 'integrations/hepic/', fc.oneof(fc.anything(), fc.record({ price_id: fc.oneof(fc.string(), fc.integer()), cluster_id: fc.oneof(fc.string(), fc.integer()) }))],
    ];
    for (const [method, path, bodies] of calls) {
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const response = await api.request(method, path, { token: owner, query: q(), rawBody: JSON.stringify(body) ?? '' });
          expect([400, 404, 409, 413], `${method} ${path} ${JSON.stringify(body)} → ${response.status}`).toContain(response.status);
        }),
        { numRuns: 25 },
      );
    }
    await fc.assert(
      fc.asyncProperty(fc.string(), async (userId) => {
        const response = await api.request('DELETE', 'integrations/hepic/users', { token: owner, query: q({ user_id: userId }) });
        expect([404, 400]).toContain(response.status);
      }),
      { numRuns: 25 },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('statistics answer the spec error when the storage cannot be read', async () => {
    const instance = (await findInstanceOfProject(api.db, productionId))!;
    await api.db.query("UPDATE hepic_instances SET cluster_id = '999999' WHERE id = $1", [instance.id]);
    const response = await api.request('GET', 'integrations/hepic/statistics', { token: owner, query: q() });
    expect(response.status).toBe(503);
    expect(response.body.message).toBe(STATISTICS_UNAVAILABLE_MESSAGE);
    await api.db.query('UPDATE hepic_instances SET cluster_id = $2 WHERE id = $1', [instance.id, instance.cluster_id]);
  });

  it("statistics neither flush the listener's queues nor wait on them, and carry the instance's shed and failed counts", async () => {
    const listener = hepic.listener()!;
    const instance = (await findInstanceOfProject(api.db, productionId))!;
    const flush = listener.flush;
    let flushes = 0;
    (listener as { flush: typeof flush }).flush = (id?: string) => {
      flushes++;
      return flush(id);
    };
    try {
      const stats = await statistics();
      expect(flushes).toBe(0);
      const counts = listener.tenant(instance.id);
      expect(stats).toMatchObject({ shed_packets: counts.shed, failed_packets: counts.failed });
      expect(stats.queued_packets).toBeGreaterThanOrEqual(0);
    } finally {
      (listener as { flush: typeof flush }).flush = flush;
    }
  });

  it('the own-storage plan has no quota: statistics give the usage of the storage disk; release drops the data', async () => {
    const enabled = await api.request('POST', 'integrations/hepic/', { token: owner, query: { project_id: stagingId }, body: { price_id: 'hepic-own-storage', cluster_id: 'shared-local' } });
    expect(enabled.status).toBe(201);
    const stats = (await api.request('GET', 'integrations/hepic/statistics', { token: owner, query: { project_id: stagingId } })).body;
    expect(stats).toMatchObject({ storage_quota: null, storage_usage_bytes: 0, packets: 0, storage_usage_percentage: 0 });
    const instance = (await findInstanceOfProject(api.db, stagingId))!;
    const storage = await hepic.storageOf(instance);
    await api.db.transaction((tx) => hepic.release(tx, { integrationId: instance.integration_id, projectId: stagingId }));
    expect(await findInstanceOfProject(api.db, stagingId)).toBeUndefined();
    // The old token stops working at once; the drop job removes the database.
    expect(await api.db.query("SELECT kind FROM jobs WHERE kind = 'hepic.drop-database'")).toHaveLength(1);
    const databases = await storage.client.query<{ name: string }>(`SELECT name FROM system.databases WHERE name = '${instance.database_name}'`);
    expect(databases).toHaveLength(1);
  });
});
