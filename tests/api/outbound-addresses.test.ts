import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterMessage } from '../../contract/clickhouse';
import { URL_MESSAGE, URL_NOT_ALLOWED_MESSAGE } from '../../contract/loggen';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { saveLoggenConfig } from '../../server/db/repositories/loggen-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createUser } from '../../server/db/repositories/users-repository';
import { clickhouseFactory } from '../../server/products/clickhouse/clickhouse-backend';
import { createLoggenBackend } from '../../server/products/loggen/loggen-backend';
import { startApi, type ApiHarness } from '../support/api-client';

// What a customer can make the platform connect to (docs/security.md, "Addresses the platform connects to"), with
// the default rules (public addresses only): the external-cluster connect and Loggen's target. Also the per-account
// caps of managed clusters and the admin password rules, which need no running server.

describe('user-given addresses, per-account caps and admin passwords (API)', () => {
  let api: ApiHarness;
  let owner: string;
  let trial: string;
  let acmeStaging: number;
  let acmeProduction: number;
  let trialProject: number;
  let secondTrialProject: number;
  let loggenIntegration: number;
  // A server on this machine standing for the platform's own pages: nothing may reach it through the platform.
  let inside: Server;
  let insidePort = 0;
  let insideHits = 0;

  const cluster = (projectId: number, name: string, status: 'active' | 'creating' | 'failed' = 'active') =>
    insertCluster(api.db, {
      project_id: projectId, integration_id: null, name, status, is_external: false, provider: 'aws', region_code: 'eu-central-1',
      machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: [],
      admin_user: 'admin_one', admin_password_sha256: null, pending_admin_secret: null, host: '127.0.0.1', http_port: 1, tcp_port: 1, secure: false,
      external_credentials: null, created_by: null,
    });
  const managed = {
    name: 'another',
    provider: 'aws',
    region_code: 'eu-central-1',
    machine: 'm5_large',
    version: '18.16',
    shards: 1,
    replicas: 1,
    disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }],
    ip_safe_list: '',
    admin_user: 'admin_one',
    admin_password: 'Secret123',
    confirm_password: 'Secret123',
  };
  const external = (host: string, over: Record<string, unknown> = {}) => ({ is_external: true, name: 'ext', host, http_port: insidePort, tcp_port: 9000, secure: false, username: 'default', password: 'x', ...over });

  beforeAll(async () => {
    inside = createServer((_req, res) => {
      insideHits += 1;
      res.end('Mail outbox: verification links');
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    insidePort = (inside.address() as AddressInfo).port;
    api = await startApi({ kind: 'pglite' }, {
      products: [clickhouseFactory, createLoggenBackend],
      env: { EXTERNAL_CONNECT_ATTEMPTS: '8', CLICKHOUSE_CLUSTERS_PER_ORGANIZATION: '2', CLICKHOUSE_CLUSTERS_PER_TRIAL_ORGANIZATION: '1' },
    });
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    acmeStaging = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    acmeProduction = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    for (const projectId of [acmeStaging, acmeProduction]) await createIntegration(api.db, { projectId, productSlug: 'clickhouse', status: 'active', creatorUserId: null });
    loggenIntegration = await createIntegration(api.db, { projectId: acmeProduction, productSlug: 'loggen', status: 'trial', creatorUserId: null, trialDays: 14 });
    const user = await createUser(api.db, { email: 'outbound-trial@example.com', givenName: 'T', familyName: 'T', emailVerified: true });
    trial = await api.mint(user);
    trialProject = (await createProject(api.db, { name: 'Trial one', organizationId: null, userId: user.id, billingAccountId: null })).id;
    secondTrialProject = (await createProject(api.db, { name: 'Trial two', organizationId: null, userId: user.id, billingAccountId: null })).id;
    for (const projectId of [trialProject, secondTrialProject]) await createIntegration(api.db, { projectId, productSlug: 'clickhouse', status: 'trial', creatorUserId: user.id });
  });
  afterAll(async () => {
    await api?.close();
    await new Promise<void>((resolve) => inside?.close(() => resolve()));
  });

  const post = (token: string, projectId: number, body: unknown) => api.request('POST', 'integrations/clickhouse/clusters', { token, query: { project_id: projectId }, body });

  it('external connect: the host is a name or an address, nothing else (400 at the field, spec 001 §8; never 500)', async () => {
    for (const host of [`127.0.0.1:${insidePort}/dev/outbox#`, 'my host', 'http://example.com', 'user@example.com', '127.1']) {
      const answer = await post(owner, acmeStaging, external(host));
      expect(answer.status, host).toBe(400);
      expect(answer.body.details, host).toEqual({ host: [ClusterMessage.hostInvalid] });
    }
    expect(insideHits).toBe(0);
  });

  it('external connect: loopback, private, link-local and unique-local addresses are refused before any connection', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '::ffff:127.0.0.1', '10.0.0.1', '169.254.169.254', 'fd00::1']) {
      const answer = await post(owner, acmeStaging, external(host));
      expect(answer.status, host).toBe(400);
      expect(answer.body.details, host).toEqual({ host: [ClusterMessage.hostNotAllowed] });
    }
    expect(insideHits).toBe(0);
  });

  it('external connect: a create the project may not make is refused (409) without connecting anywhere', async () => {
    await cluster(trialProject, 'first');
    const answer = await post(trial, trialProject, external('127.0.0.1'));
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('Cluster creation is not allowed');
  });

  it('external connect: attempts are limited per account (429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(owner, acmeStaging, external('10.1.1.1'))).status);
    // 7 counted attempts so far (the host checks above), 8 allowed: one more 400, then 429.
    expect(statuses).toEqual([400, 429, 429, 429]);
    const refused = await post(owner, acmeStaging, external('10.1.1.1'));
    expect(refused.body.message).toBe('Too many connection attempts');
  });

  it('Loggen: only public addresses (and the project\'s own qryn instance) are accepted, at save and at every run', async () => {
    const body = {
      url: `http://127.0.0.1:${insidePort}/dev/outbox#`,
      headers: [],
      api_key: 'k',
      api_secret: 's',
      labels: [{ key: 'app', value: 'x' }],
      rate: 1,
      timeout: '5s',
      log_config: { format: 'json', structure: [{ name: 'msg', expression: '{{text.phrase}}' }] },
      enable_metrics: false,
      traces: { enabled: false, custom: false, spans: [] },
    };
    for (const url of [`http://127.0.0.1:${insidePort}/dev/outbox#`, `http://localhost:${insidePort}/`, 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://user:pw@example.com/']) {
      const saved = await api.request('PATCH', 'integrations/loggen/config', { token: owner, query: { project_id: acmeProduction }, body: { ...body, url } });
      expect(saved.status, url).toBe(400);
      expect(saved.body.details, url).toEqual({ url: [URL_NOT_ALLOWED_MESSAGE] });
    }
    expect((await api.request('PATCH', 'integrations/loggen/config', { token: owner, query: { project_id: acmeProduction }, body: { ...body, url: 'ftp://example.com' } })).body.details).toEqual({ url: [URL_MESSAGE] });
    // A configuration saved before these rules (or by a name that resolved elsewhere then) is checked again at run.
    await saveLoggenConfig(api.db, loggenIntegration, { ...body, url: `http://127.0.0.1:${insidePort}/` }, (await api.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'demo@example.com'"))[0].id);
    const run = await api.request('POST', 'integrations/loggen/run', { token: owner, query: { project_id: acmeProduction } });
    expect(run.status).toBe(400);
    expect(run.body.details).toEqual({ url: [URL_NOT_ALLOWED_MESSAGE] });
    expect(insideHits).toBe(0);
  });

  it('managed clusters: common passwords and the username as password are refused at the field', async () => {
    for (const password of ['password', 'Password1', '12345678', 'qwertyuiop']) {
      const answer = await post(owner, acmeProduction, { ...managed, admin_password: password, confirm_password: password });
      expect(answer.status, password).toBe(400);
      expect(answer.body.details, password).toEqual({ admin_password: [ClusterMessage.adminPasswordCommon] });
    }
    const same = await post(owner, acmeProduction, { ...managed, admin_user: 'analytics', admin_password: 'analytics', confirm_password: 'analytics' });
    expect(same.body.details).toEqual({ admin_password: [ClusterMessage.adminPasswordIsUser] });
  });

  it('managed clusters: an organization runs at most its cap, counted over all its projects (409 at create)', async () => {
    await cluster(acmeStaging, 'one');
    await cluster(acmeStaging, 'broken', 'failed'); // a failed cluster runs no server and does not count
    await cluster(acmeProduction, 'two', 'creating');
    const answer = await post(owner, acmeProduction, managed);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(ClusterMessage.clusterLimitReached);
    expect(answer.body.description).toMatch(/at most 2 managed ClickHouse clusters/);
  });

  it('managed clusters: a trial account runs at most one, whichever project it is in', async () => {
    const answer = await post(trial, secondTrialProject, { ...managed, name: 'default', replicas: 2 });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(ClusterMessage.clusterLimitReached);
    expect(answer.body.description).toMatch(/at most 1 managed ClickHouse cluster at a time without a payment method/);
  });
});
