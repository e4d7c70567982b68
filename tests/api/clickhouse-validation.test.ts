import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterMessage, CreateExternalClusterBody, IpSafeListBody, createClusterBody } from '../../contract/clickhouse';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import { createUser } from '../../server/db/repositories/users-repository';
import { clickhouseFactory } from '../../server/products/clickhouse/clickhouse-backend';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { expectSchemaAnswer } from '../support/schema-answer';
import { localClickhouseVersions } from '../../server/products/clickhouse/clickhouse-versions';
import { CLICKHOUSE_SERVER_BIN } from '../../server/products/clickhouse/local-provisioner';

// Bad input to the ClickHouse calls: the server validates with the contract's schema (the one the console's form
// uses), so whatever the schema rejects is answered 400 (shape and rules alike, spec 001 §8) with exactly its field messages, and
// nothing is ever a 5xx. No job runs here: accepted bodies only queue a provisioning job.

describe.each(databaseTargets())('ClickHouse input validation ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let trial: string;
  let paidProject: number;
  let trialProject: number;
  let activeCluster: number;

  beforeAll(async () => {
    api = await startApi(target, { products: [clickhouseFactory] });
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    paidProject = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    await createIntegration(api.db, { projectId: paidProject, productSlug: 'clickhouse', status: 'active', creatorUserId: null });
    const user = await createUser(api.db, { email: 'ch-trial@example.com', givenName: 'T', familyName: 'T', emailVerified: true });
    trial = await api.mint(user);
    trialProject = (await createProject(api.db, { name: 'Trial', organizationId: null, userId: user.id, billingAccountId: null })).id;
    await createIntegration(api.db, { projectId: trialProject, productSlug: 'clickhouse', status: 'trial', creatorUserId: user.id });
    activeCluster = (
      await insertCluster(api.db, {
        project_id: paidProject, integration_id: null, name: 'fixed', status: 'active', is_external: false, provider: 'aws', region_code: 'eu-central-1',
        machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: [],
        admin_user: 'admin_one', admin_password_sha256: null, pending_admin_secret: null, host: '127.0.0.1', http_port: 1, tcp_port: 1, secure: false,
        external_credentials: null, created_by: null,
      })
    ).id;
  });
  afterAll(async () => api?.close());

  const valid = {
    name: 'prod',
    provider: 'aws',
    region_code: 'eu-central-1',
    machine: 'm5_xlarge',
    version: '18.16',
    shards: 2,
    replicas: 2,
    disks: [{ name: 'default', type: 'st1', size: 600, unit_type: 'Decimal' }],
    ip_safe_list: '10.0.0.0/8',
    admin_user: 'admin_one',
    admin_password: 'Secret123',
    confirm_password: 'Secret123',
  };

  it('the project without ClickHouse enabled gets the spec message', async () => {
    const production = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    const response = await api.request('GET', 'integrations/clickhouse/clusters', { token: owner, query: { project_id: production } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(`We could not find any ClickHouse cluster for project ${production}`);
  });

  it('checks the price list after the rules: unknown region, machine, disk type and zones are named per field', async () => {
    const response = await api.request('POST', 'integrations/clickhouse/clusters', {
      token: owner,
      query: { project_id: paidProject },
      body: { ...valid, provider: 'gcp', region_code: 'europe-west1', machine: 'm5_large', disks: [{ name: 'default', type: 'gp3', size: 600, unit_type: 'Decimal' }], zones: ['europe-west1-b', 'europe-west9-z'], control_plane_zone: 'europe-west1-b' },
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.details).sort()).toEqual(['disks.0.type', 'machine', 'zones']);
  });

  it('offers only the version the local back end can run (this machine\'s clickhouse-server package), and refuses others', async () => {
    const versions = await api.request('GET', 'clickhouse-versions', { token: owner });
    expect(versions.status).toBe(200);
    expect(versions.body).toEqual(await localClickhouseVersions(CLICKHOUSE_SERVER_BIN));
    expect(versions.body).toEqual([{ name: '18.16', image_tag: expect.stringMatching(/^debian:clickhouse-server=18\.16\./), description: expect.stringContaining('ClickHouse 18.16') }]);
    // A version the machine cannot run, e.g. an image tag of a newer release, is refused at the field.
    for (const version of ['24.8', 'clickhouse/clickhouse-server:24.8.4.13']) {
      const refused = await api.request('POST', 'integrations/clickhouse/clusters', { token: owner, query: { project_id: paidProject }, body: { ...valid, version } });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual({ version: [`The version ${version} is not offered.`] });
    }
  });

  it('the same rules with and without a payment method (trial limits on the trial project)', async () => {
    const response = await api.request('POST', 'integrations/clickhouse/clusters', { token: trial, query: { project_id: trialProject }, body: valid });
    expect(response.status).toBe(400);
    expect(response.body.details.shards).toEqual([ClusterMessage.shardsMax(1)]);
    expect(response.body.details.machine).toEqual([ClusterMessage.trialDefaultOnly]);
    const paid = await api.request('POST', 'integrations/clickhouse/clusters', { token: owner, query: { project_id: paidProject }, body: valid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const duplicate = await api.request('POST', 'integrations/clickhouse/clusters', { token: owner, query: { project_id: paidProject }, body: valid });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.details).toEqual({ name: ['A cluster with this name already exists in this project.'] });
  });

  const anyJson = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.constant(undefined));
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: anyJson });
  const createArbitrary = fc.record(
    {
      name: maybe(fc.constantFrom('', 'ok-name', 'Bad', 'waytoolongclustername')),
      provider: maybe(fc.constantFrom('aws', 'gcp', 'x')),
      region_code: maybe(fc.constantFrom('eu-central-1', 'us-central1', '')),
      machine: maybe(fc.constantFrom('m5_large', 'n2_standard_2', '')),
      version: maybe(fc.constantFrom('18.16', '')),
      shards: maybe(fc.oneof(fc.integer({ min: -1, max: 1001 }), fc.double())),
      replicas: maybe(fc.integer({ min: -1, max: 1001 })),
      disks: maybe(fc.array(fc.record({ name: maybe(fc.constantFrom('default', 'x', 'X!')), type: maybe(fc.constantFrom('gp2', 'st1', 'pd-ssd')), size: maybe(fc.double({ min: -1, max: 5000, noNaN: true })), unit_type: maybe(fc.constantFrom('Binary', 'Decimal')) }), { maxLength: 3 })),
      zones: maybe(fc.array(fc.constantFrom('us-central1-a', 'us-central1-b', 'nowhere'), { maxLength: 3 })),
      control_plane_zone: maybe(fc.constantFrom(null, 'us-central1-a')),
      ip_safe_list: maybe(fc.oneof(fc.string(), fc.constantFrom('1.2.3.4/24', '300.1.1.1'))),
      admin_user: maybe(fc.oneof(fc.string(), fc.constantFrom('admin_one', 'grafana'))),
      admin_password: maybe(fc.constantFrom('Secret123', 'short')),
      confirm_password: maybe(fc.constantFrom('Secret123', 'other')),
    },
    { requiredKeys: [] },
  );

  it.each([
    ['POST managed', 'POST', () => ({ project_id: paidProject }), createClusterBody({ hasPaymentMethod: true }), createArbitrary],
    [
      'POST external',
      'POST',
      () => ({ project_id: paidProject }),
      CreateExternalClusterBody,
      fc.record({ is_external: fc.constant(true), name: maybe(fc.constantFrom('', 'ext', 'Bad')), host: maybe(fc.constantFrom('', '127.0.0.1')), http_port: maybe(fc.integer({ min: -1, max: 70000 })), tcp_port: maybe(fc.integer({ min: 0, max: 2 })), secure: maybe(fc.boolean()), username: maybe(fc.constantFrom('', 'u')), password: maybe(fc.constantFrom('', 'p')) }, { requiredKeys: ['is_external'] }),
    ],
    ['PATCH IP safe list', 'PATCH', () => ({ project_id: paidProject, cluster_id: activeCluster }), IpSafeListBody, fc.record({ replace: maybe(fc.boolean()), ip_list: maybe(fc.array(fc.oneof(fc.string(), fc.constantFrom('10.0.0.1', '1.2.3.4/33')), { maxLength: 3 })) }, { requiredKeys: [] })],
  ] as const)('property: %s never answers 5xx and reports exactly the schema errors', async (_name, method, query, schema, arbitrary) => {
    await fc.assert(
      fc.asyncProperty(arbitrary as fc.Arbitrary<unknown>, async (body) => {
        const sent = JSON.stringify(body ?? null);
        const response = await api.request(method, 'integrations/clickhouse/clusters', { token: owner, query: query(), rawBody: sent });
        expectSchemaAnswer(response, schema as never, sent, 400);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 40) },
    );
  });

  it('a region code that names an Object.prototype member has no zones (never a 5xx)', async () => {
    for (const region_code of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const zones = await api.request('GET', 'zones', { token: owner, query: { project_id: paidProject, provider_name: 'gcp', region_code } });
      expect(zones.status, region_code).toBeLessThan(500);
    }
  });

  it('property: metrics and zone queries of any text never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('start_time', 'end_time', 'nodes', 'databases', 'region_code'), fc.oneof(fc.string(), fc.constantFrom('1e3', '-1', 'NaN', '99999999999')), async (key, value) => {
        const metrics = await api.request('GET', 'clusters/fixed/metrics', { token: owner, query: { project_id: paidProject, [key]: value } });
        expect(metrics.status).toBeLessThan(500);
        const zones = await api.request('GET', 'zones', { token: owner, query: { project_id: paidProject, provider_name: 'gcp', region_code: 'x', [key]: value } });
        expect(zones.status).toBeLessThan(500);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 40) },
    );
  });
});
