import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { recordingProduct, type RecordedCall } from '../support/recording-product';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createUser } from '../../server/db/repositories/users-repository';
import { createBillingAccount, setPaymentMethod } from '../../server/db/repositories/billing-repository';
import { DAY_MS, runLifecycleTick, TRIAL_DAYS } from '../../server/api/subscription-lifecycle';
import { EnableProductResponse, PRODUCT_ERROR_MESSAGE, QrynEnableBody, SELECT_PRODUCT_MESSAGE, SELECT_PROJECT_MESSAGE, SELECT_STORAGE_MESSAGE, SELECT_WRITER_REGION_MESSAGE } from '../../contract/stack';
import { Schema } from 'effect';

// The stack's calls over a real database with recording product back ends: enable (generic route, dependencies,
// show-config validation, one transaction), cancel (period end, Grafana for the whole organization), the lifecycle
// job on the business clock, and system status from registered checks.

describe.each(databaseTargets())('the stack ($kind)', (target) => {
  let api: ApiHarness;
  const calls: RecordedCall[] = [];
  let storageUp = true;
  let acmeId: number;
  let owner: string;
  let readOnly: string;
  let counter = 0;

  beforeAll(async () => {
    api = await startApi(target, {
      products: [
        recordingProduct('clickhouse', calls, { service: { name: 'Storage', running: () => storageUp } }),
        recordingProduct('grafana', calls),
        recordingProduct('loggen', calls),
        recordingProduct('qryn', calls, {
          input: QrynEnableBody,
          result: { items: [{ label: 'API KEY', value: 'key-1' }, { label: 'API SECRET', value: 'secret-1' }], hasJsonDownload: true },
        }),
      ],
    });
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    readOnly = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
  });
  afterAll(async () => api?.close());
  beforeEach(() => {
    calls.length = 0;
  });

  const acmeProject = async () =>
    (await createProject(api.db, { name: `Stack ${++counter}`, organizationId: acmeId, userId: (await api.user('demo@example.com')).id, billingAccountId: null })).id;
  /** A personal user whose only billing account has no card, with one project. */
  const cardlessUser = async () => {
    const user = await createUser(api.db, { email: `stack${++counter}@example.com`, givenName: 'Stack', familyName: `User ${counter}`, emailVerified: true });
    const account = await createBillingAccount(api.db, { name: `Stack ${counter}`, ownerUserId: user.id, isDefault: true });
    const project = await createProject(api.db, { name: `Cardless ${counter}`, organizationId: null, userId: user.id, billingAccountId: account.id });
    return { user, accountId: account.id, projectId: project.id, token: await api.mint(user, { organizationId: null }) };
  };
  const enable = (token: string, projectId: number, slug: string, body: unknown = {}) =>
    api.request('POST', `integrations/${slug}/`, { token, query: { project_id: projectId }, body });
  const integrations = async (token: string, projectId: number) =>
    (await api.request('GET', 'integrations/', { token, query: { project_id: projectId } })).body as { id: number; status: string; product: { slug: string } }[];
  const statusOf = async (token: string, projectId: number, slug: string) => (await integrations(token, projectId)).find((i) => i.product.slug === slug)?.status;
  const tick = () => runLifecycleTick({ db: api.db, clock: api.clock, products: api.products });
  const testRows = async (integrationId: number, slug: string) =>
    (await api.db.query(`SELECT 1 FROM jobs WHERE kind = 'test.enabled' AND subject = $1`, [`${slug}:${integrationId}`])).length;

  it('GET products: the catalogue with tags and dependencies (Loggen needs qryn)', async () => {
    const response = await api.request('GET', 'products', { token: owner });
    expect(response.status).toBe(200);
    expect(response.body.map((p: { slug: string }) => p.slug)).toEqual(['clickhouse', 'grafana', 'hepic', 'loggen', 'qryn']);
    expect(response.body.find((p: { slug: string }) => p.slug === 'loggen')).toMatchObject({ dependencies: ['qryn'], is_available: true, tags: expect.any(Array) });
  });

  it('enables a product directly: a 14-day trial recorded with the back end called once in the same transaction', async () => {
    const projectId = await acmeProject();
    const response = await enable(owner, projectId, 'clickhouse');
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ integration_id: expect.any(Number), items: [], has_json_download: false, message: 'ClickHouse has been enabled.' });
    // The spec's enable-response fields (001 §3): product, enabled, step, errors.
    expect(response.body).toMatchObject({ product: 'clickhouse', enabled: true, step: 'show-info', errors: {} });
    expect(Schema.decodeUnknownSync(EnableProductResponse)(response.body).step).toBe('show-info');
    const integrationId = response.body.integration_id;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ kind: 'enable', slug: 'clickhouse', integrationId, projectId });
    expect(calls[0].request).toMatchObject({ organizationId: acmeId, userId: (await api.user('demo@example.com')).id, input: {} });
    expect(await testRows(integrationId, 'clickhouse')).toBe(1);
    const listed = (await integrations(owner, projectId))[0] as unknown as Record<string, unknown>;
    expect(listed).toMatchObject({ status: 'trial', creator_name: 'Demo Owner', is_available: true });
    const trial = await api.request('GET', 'integrations/clickhouse/trial', { token: owner, query: { project_id: projectId } });
    expect(trial.body).toEqual({ remaining_days: TRIAL_DAYS });
    api.clock.advance(3 * DAY_MS + 1);
    expect((await api.request('GET', 'integrations/clickhouse/trial', { token: owner, query: { project_id: projectId } })).body).toEqual({ remaining_days: TRIAL_DAYS - 3 });

    const again = await enable(owner, projectId, 'clickhouse');
    expect(again.status).toBe(409);
    expect(calls).toHaveLength(1);
  });

  it('refuses what cannot be enabled, with the spec texts, and records nothing', async () => {
    const projectId = await acmeProject();
    const unknown = await enable(owner, projectId, 'nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(PRODUCT_ERROR_MESSAGE);
    const noBackend = await enable(owner, projectId, 'hepic');
    expect(noBackend.status).toBe(400);
    expect(noBackend.body.message).toBe("hepic couldn't be enabled");
    const loggen = await enable(owner, projectId, 'loggen');
    expect(loggen.status).toBe(400);
    expect(loggen.body).toMatchObject({ message: "loggen couldn't be enabled", description: expect.stringContaining('qryn') });
    expect(await integrations(owner, projectId)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('an enable call without a project or a product answers the form\'s texts at the field (spec 001 §5)', async () => {
    for (const query of [{}, { project_id: '' }, { project_id: ' ' }] as Record<string, string>[]) {
      const noProject = await api.request('POST', 'integrations/grafana/', { token: owner, query, body: {} });
      expect(noProject.status).toBe(400);
      expect(noProject.body.details).toEqual({ project_id: [SELECT_PROJECT_MESSAGE] });
    }
    for (const path of ['integrations/', 'integrations/%20/']) {
      const noProduct = await api.request('POST', path, { token: owner, query: { project_id: await acmeProject() }, body: {} });
      expect(noProduct.status).toBe(400);
      expect(noProduct.body.details).toEqual({ productSlug: [SELECT_PRODUCT_MESSAGE] });
    }
    expect(calls).toEqual([]);
  });

  it('show-config input is checked by the product: 400 per field (spec 001 §5), nothing left behind; a valid one answers the keys', async () => {
    const projectId = await acmeProject();
    const bad = await enable(owner, projectId, 'qryn', { cluster_id: '', writer_region_code: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({ cluster_id: [SELECT_STORAGE_MESSAGE], writer_region_code: [SELECT_WRITER_REGION_MESSAGE] });
    // The form stays at show-config with the messages in the spec's `errors` field.
    expect(bad.body).toMatchObject({ product: 'qryn', enabled: false, step: 'show-config', errors: bad.body.details });
    expect(await integrations(owner, projectId)).toEqual([]);
    expect(calls).toEqual([]);

    const good = await enable(owner, projectId, 'qryn', { cluster_id: 'shared-eu', writer_region_code: 'eu' });
    expect(good.status).toBe(201);
    expect(good.body).toMatchObject({ api_key: 'key-1', api_secret: 'secret-1', has_json_download: true, items: [{ label: 'API KEY', value: 'key-1' }, { label: 'API SECRET', value: 'secret-1' }] });
    expect(good.body).toMatchObject({ product: 'qryn', enabled: true, step: 'show-info', errors: {} });
    // Loggen's dependency is now met.
    expect((await enable(owner, projectId, 'loggen')).status).toBe(201);
  });

  it('a back end that fails while enabling leaves no integration and none of its own writes', async () => {
    const failing: RecordedCall[] = [];
    const other = await startApi(target, { products: [recordingProduct('clickhouse', failing, { failEnable: true })] });
    try {
      const id = (await other.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
      const token = await other.tokenFor('demo@example.com', { organizationId: id });
      const projectId = (await other.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
      const response = await other.request('POST', 'integrations/clickhouse/', { token, query: { project_id: projectId }, body: {} });
      expect(response.status).toBe(500);
      expect(failing).toHaveLength(1);
      expect(await other.db.query("SELECT 1 FROM integrations WHERE project_id = $1 AND product_slug = 'clickhouse'", [projectId])).toEqual([]);
      expect(await other.db.query("SELECT 1 FROM jobs WHERE kind = 'test.enabled'")).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('read-only members may not enable or cancel', async () => {
    const projectId = await acmeProject();
    expect((await enable(readOnly, projectId, 'clickhouse')).status).toBe(403);
    expect((await enable(owner, projectId, 'clickhouse')).status).toBe(201);
    expect((await api.request('POST', 'integrations/clickhouse/cancel', { token: readOnly, query: { project_id: projectId } })).status).toBe(403);
    expect(calls.filter((c) => c.kind === 'enable')).toHaveLength(1);
  });

  it('a trial that ends without a card is suspended; a card added later makes it active', async () => {
    const cardless = await cardlessUser();
    expect((await enable(cardless.token, cardless.projectId, 'clickhouse')).status).toBe(201);
    api.clock.advance((TRIAL_DAYS - 1) * DAY_MS);
    await tick();
    expect(await statusOf(cardless.token, cardless.projectId, 'clickhouse')).toBe('trial');
    api.clock.advance(DAY_MS + 1);
    await tick();
    expect(await statusOf(cardless.token, cardless.projectId, 'clickhouse')).toBe('suspended');
    expect((await integrations(cardless.token, cardless.projectId))[0]).toMatchObject({ is_available: false });
    await tick();
    expect(await statusOf(cardless.token, cardless.projectId, 'clickhouse')).toBe('suspended');
    await setPaymentMethod(api.db, cardless.accountId, `pm_local_stack${counter}`, 'visa •••• 4242');
    await tick();
    expect(await statusOf(cardless.token, cardless.projectId, 'clickhouse')).toBe('active');
  });

  it('a trial that ends with a card on file becomes active', async () => {
    const projectId = await acmeProject();
    expect((await enable(owner, projectId, 'clickhouse')).status).toBe(201);
    api.clock.advance(TRIAL_DAYS * DAY_MS + 1);
    await tick();
    expect(await statusOf(owner, projectId, 'clickhouse')).toBe('active');
  });

  it('cancel schedules the end at the period end; the job then cancels and releases once; re-enabling starts a new trial', async () => {
    const projectId = await acmeProject();
    const enabled = await enable(owner, projectId, 'clickhouse');
    const integrationId = enabled.body.integration_id;
    const trialEnd = Math.floor((api.clock.nowMs() + TRIAL_DAYS * DAY_MS) / 1000);
    const cancel = await api.request('POST', 'integrations/clickhouse/cancel', { token: owner, query: { project_id: projectId } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(Math.abs(cancel.body.cancellation_date_timestamp - trialEnd)).toBeLessThanOrEqual(1);
    expect(await statusOf(owner, projectId, 'clickhouse')).toBe('scheduled_for_cancellation');
    const date = await api.request('GET', 'integrations/clickhouse/cancellation', { token: owner, query: { project_id: projectId } });
    expect(date.body).toEqual({ cancellation_date_timestamp: cancel.body.cancellation_date_timestamp });
    expect((await api.request('POST', 'integrations/clickhouse/cancel', { token: owner, query: { project_id: projectId } })).status).toBe(409);

    await tick();
    expect(await statusOf(owner, projectId, 'clickhouse')).toBe('scheduled_for_cancellation');
    api.clock.advance(TRIAL_DAYS * DAY_MS + 1);
    await Promise.all([tick(), tick()]);
    expect(await statusOf(owner, projectId, 'clickhouse')).toBe('cancelled_by_user');
    expect(calls.filter((c) => c.kind === 'release')).toEqual([{ kind: 'release', slug: 'clickhouse', integrationId, projectId }]);

    const again = await enable(owner, projectId, 'clickhouse');
    expect(again.status).toBe(201);
    expect(again.body.integration_id).toBe(integrationId);
    expect(await statusOf(owner, projectId, 'clickhouse')).toBe('trial');
    expect((await api.request('GET', 'integrations/clickhouse/trial', { token: owner, query: { project_id: projectId } })).body).toEqual({ remaining_days: TRIAL_DAYS });
  });

  it('cancelling Grafana cancels it in every project of the organization', async () => {
    const first = await acmeProject();
    const second = await acmeProject();
    expect((await enable(owner, first, 'grafana')).status).toBe(201);
    expect((await enable(owner, second, 'grafana')).status).toBe(201);
    const cancel = await api.request('POST', 'integrations/grafana/cancel', { token: owner, query: { project_id: first } });
    expect(cancel.status).toBe(200);
    expect(cancel.body.cancelled.map((c: { project_id: number }) => c.project_id)).toEqual(expect.arrayContaining([first, second]));
    expect(await statusOf(owner, first, 'grafana')).toBe('scheduled_for_cancellation');
    expect(await statusOf(owner, second, 'grafana')).toBe('scheduled_for_cancellation');
    // The enabling user is the first on Grafana's user list, so the card is theirs.
    expect((await integrations(owner, first)).find((i) => i.product.slug === 'grafana')).toMatchObject({ is_user_active: true });
  });

  it('cancel of a product that is not enabled is a 400 naming it', async () => {
    const projectId = await acmeProject();
    const response = await api.request('POST', 'integrations/qryn/cancel', { token: owner, query: { project_id: projectId } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(`qryn is not enabled for project ${projectId}`);
  });

  it('system status reports the registered checks; a product without a back end has no services', async () => {
    storageUp = true;
    const up = await api.request('GET', 'integrations/status', { token: owner });
    expect(up.status).toBe(200);
    const bySlug = Object.fromEntries(up.body.map((s: { slug: string }) => [s.slug, s]));
    expect(bySlug.clickhouse.services).toEqual([{ name: 'Storage', running: true }]);
    expect(bySlug.hepic.services).toEqual([]);
    expect(bySlug.platform.services).toEqual(expect.arrayContaining([{ name: 'Database', running: true }]));
    storageUp = false;
    const down = await api.request('GET', 'integrations/status', { token: owner });
    expect(down.body.find((s: { slug: string }) => s.slug === 'clickhouse').services).toEqual([{ name: 'Storage', running: false }]);
    storageUp = true;
  });

  it('property: any project_id, slug and body to enable and cancel is answered 2xx/4xx, never 5xx, and leaves nothing on refusal', async () => {
    const projectId = await acmeProject();
    const json = fc.jsonValue({ maxDepth: 2 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(String(projectId)), fc.string({ maxLength: 12 }), fc.integer().map(String)),
        fc.oneof(fc.constantFrom('clickhouse', 'qryn', 'loggen', 'hepic', 'grafana'), fc.string({ minLength: 1, maxLength: 10 })),
        fc.oneof(json, fc.record({ cluster_id: fc.oneof(fc.string(), json), writer_region_code: fc.oneof(fc.string(), json) }, { requiredKeys: [] })),
        async (project, slug, body) => {
          const before = (await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM integrations'))[0].n;
          const path = `integrations/${encodeURIComponent(slug)}/`;
          const response = await api.request('POST', path, { token: owner, query: { project_id: project }, body });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          if (response.status >= 400) {
            expect(response.body).toMatchObject({ message: expect.any(String), description: expect.any(String) });
            expect((await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM integrations'))[0].n).toBe(before);
          }
          const cancel = await api.request('POST', `integrations/${encodeURIComponent(slug)}/cancel`, { token: owner, query: { project_id: project } });
          expect(cancel.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });
});
