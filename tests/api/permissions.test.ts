import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { addProjectUser, createProject } from '../../server/db/repositories/projects-repository';
import { addMember, createOrganization } from '../../server/db/repositories/organizations-repository';
import { createInvitation } from '../../server/db/repositories/invitations-repository';
import { createUser } from '../../server/db/repositories/users-repository';
import { createBillingAccount, setPaymentMethod } from '../../server/db/repositories/billing-repository';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local-payment-provider';
import { createIntegration } from '../../server/db/repositories/integrations-repository';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { findInstanceOfProject, insertToken } from '../../server/products/qryn/instances/qryn-repository';
import { enableQryn } from '../support/qryn';
import { insertDatasource } from '../../server/products/grafana/grafana-repository';
import { enableHepic } from '../support/hepic';
import { addUsers, findInstanceOfProject as findHepicInstance } from '../../server/products/hepic/hepic-repository';

// Who may call what: one row per call, one expected status per role. Destructive calls get a fresh target per
// role, so every cell is judged on its own.
type Role = 'anonymous' | 'personal' | 'owner' | 'readWrite' | 'readOnly' | 'nonMember';
const ROLES: Role[] = ['anonymous', 'personal', 'owner', 'readWrite', 'readOnly', 'nonMember'];

interface Fixture {
  api: ApiHarness;
  acmeId: number;
  productionId: number;
  acmeBillingId: number;
}

interface Row {
  call: string;
  request: (
    f: Fixture,
    role: Role,
  ) => Promise<{
    method: string;
    path: string;
    query?: Record<string, string | number>;
    body?: unknown;
    /** A fresh user in the role, for calls that change or delete the caller's own account (the seeded users stay intact). */
    caller?: FreshCaller;
  }>;
  expected: Record<Role, number>;
}

interface FreshCaller {
  userId: string | null;
  token: string | undefined;
}

let counter = 0;
const freshOrgProject = async (f: Fixture) =>
  (await createProject(f.api.db, { name: `Fresh ${++counter}`, organizationId: f.acmeId, userId: (await f.api.user('demo@example.com')).id, billingAccountId: null })).id;
const freshMember = async (f: Fixture) => {
  const user = await createUser(f.api.db, { email: `member${++counter}@example.com`, givenName: 'M', familyName: String(counter), emailVerified: true });
  await addMember(f.api.db, { organizationId: f.acmeId, userId: user.id, readOnly: false, projectIds: [] });
  return user.id;
};
const freshInvite = async (f: Fixture) =>
  (await createInvitation(f.api.db, { organizationId: f.acmeId, email: `inv${++counter}@example.com`, invitingUserId: (await f.api.user('demo@example.com')).id, readOnly: false, projectIds: [] })).id;

const freshInviteCode = async (f: Fixture, invitedEmail?: string) => {
  // An invitation to an organization none of the role's callers belongs to, so accepting it is a real join; it is
  // addressed to the caller (an invitation is only accepted by the account of the invited email).
  const owner = await createUser(f.api.db, { email: `inviter${++counter}@example.com`, givenName: 'I', familyName: String(counter), emailVerified: true });
  const account = await createBillingAccount(f.api.db, { name: `Inviter ${counter}`, ownerUserId: owner.id, isDefault: true });
  const organizationId = await createOrganization(f.api.db, { name: `Inviting ${counter}`, billingAccountId: account.id, ownerUserId: owner.id });
  return (await createInvitation(f.api.db, { organizationId, email: invitedEmail ?? `joiner${counter}@example.com`, invitingUserId: owner.id, readOnly: false, projectIds: [] })).code;
};
/** A billing account of the user with a card on file (what POST organizations/ asks for). */
const freshCardAccount = async (f: Fixture, userId: string) => {
  const account = await createBillingAccount(f.api.db, { name: `Card ${++counter}`, ownerUserId: userId, isDefault: false });
  await setPaymentMethod(f.api.db, account.id, `pm_local_matrix${counter}`, 'visa •••• 4242');
  return account.id;
};
/** A tax id on the Acme billing account. */
const freshAcmeTaxId = async (f: Fixture) =>
  (await f.api.db.query<{ id: number }>("INSERT INTO tax_ids (billing_account_id, country, type, value) VALUES ($1, 'DE', 'eu_vat', $2) RETURNING id", [f.acmeBillingId, `DE${200000000 + ++counter}`]))[0].id;
/** An open invoice of the Acme billing account with its pay-now token. */
const freshAcmeInvoiceToken = async (f: Fixture) => {
  const token = `matrix-${++counter}`;
  await f.api.db.query("INSERT INTO invoices (billing_account_id, amount_cents, status, pay_token) VALUES ($1, 24900, 'open', $2)", [f.acmeBillingId, token]);
  return token;
};
/** A setup intent of the Acme billing account, not yet confirmed. */
const freshAcmeSetupIntent = async (f: Fixture) =>
  (await createLocalPaymentProvider(f.api.db).createSetupIntent({ id: f.acmeBillingId, name: 'Acme billing', customerRef: null, ownerEmail: 'demo@example.com' }))
    .client_secret;
/**
 * A new user standing in the given role: personal account; owner of an organization of their own; read-write or
 * read-only member of Acme; or holding an Acme token without being a member.
 */
const freshCaller = async (f: Fixture, role: Role): Promise<FreshCaller> => {
  if (role === 'anonymous') return { userId: null, token: undefined };
  const n = ++counter;
  const user = await createUser(f.api.db, { email: `caller${n}@example.com`, password: 'Demo1234!', givenName: 'Fresh', familyName: `Caller ${n}`, emailVerified: true });
  let organizationId: number | null = null;
  if (role === 'owner') {
    const account = await createBillingAccount(f.api.db, { name: `Caller ${n}`, ownerUserId: user.id, isDefault: true });
    organizationId = await createOrganization(f.api.db, { name: `Caller org ${n}`, billingAccountId: account.id, ownerUserId: user.id });
  } else if (role === 'readWrite' || role === 'readOnly') {
    await addMember(f.api.db, { organizationId: f.acmeId, userId: user.id, readOnly: role === 'readOnly', projectIds: [] });
    organizationId = f.acmeId;
  } else if (role === 'nonMember') {
    organizationId = f.acmeId;
  }
  return { userId: user.id, token: await f.api.mint(user, { organizationId }) };
};
/** An Acme project (paid: Acme has a card on file) with ClickHouse enabled, and optionally one active cluster in it. */
const freshClickhouseProject = async (f: Fixture) => {
  const projectId = await freshOrgProject(f);
  await createIntegration(f.api.db, { projectId, productSlug: 'clickhouse', status: 'active', creatorUserId: null });
  return projectId;
};
const freshClickhouseCluster = async (f: Fixture) => {
  const projectId = await freshClickhouseProject(f);
  const cluster = await insertCluster(f.api.db, {
    project_id: projectId, integration_id: null, name: 'matrix', status: 'active', is_external: false, provider: 'aws', region_code: 'eu-central-1',
    machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: [],
    admin_user: 'admin_one', admin_password_sha256: null, pending_admin_secret: null, host: '127.0.0.1', http_port: 1, tcp_port: 1, secure: false,
    external_credentials: null, created_by: null,
  });
  return { projectId, clusterId: cluster.id };
};
const clusterBody = (name: string) => ({
  name, provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', version: '18.16', shards: 1, replicas: 2,
  disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], ip_safe_list: '', admin_user: 'admin_one', admin_password: 'Secret123', confirm_password: 'Secret123',
});
const card = { card_number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' };

const all = (anonymous: number, personal: number, owner: number, readWrite: number, readOnly: number, nonMember: number): Record<Role, number> => ({
  anonymous,
  personal,
  owner,
  readWrite,
  readOnly,
  nonMember,
});

const ROWS: Row[] = [
  { call: 'GET projects/', request: async () => ({ method: 'GET', path: 'projects/' }), expected: all(401, 200, 200, 200, 200, 403) },
  { call: 'POST projects/', request: async () => ({ method: 'POST', path: 'projects/', body: { name: 'Matrix project' } }), expected: all(401, 201, 201, 201, 403, 403) },
  { call: 'GET projects/users', request: async (f) => ({ method: 'GET', path: 'projects/users', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  {
    call: 'POST projects/users',
    request: async (f) => ({ method: 'POST', path: 'projects/users', body: { user_id: (await f.api.user('viewer@example.com')).id, project_id: await freshOrgProject(f) } }),
    expected: all(401, 403, 201, 201, 403, 403),
  },
  { call: 'DELETE projects', request: async (f) => ({ method: 'DELETE', path: 'projects', query: { project_id: await freshOrgProject(f) } }), expected: all(401, 404, 200, 403, 403, 403) },
  { call: 'GET organizations/users', request: async () => ({ method: 'GET', path: 'organizations/users' }), expected: all(401, 400, 200, 200, 200, 403) },
  { call: 'GET organizations/invitations', request: async () => ({ method: 'GET', path: 'organizations/invitations' }), expected: all(401, 400, 200, 200, 200, 403) },
  { call: 'GET organizations/trial', request: async () => ({ method: 'GET', path: 'organizations/trial' }), expected: all(401, 400, 200, 200, 200, 403) },
  { call: 'GET organizations/users/owner', request: async () => ({ method: 'GET', path: 'organizations/users/owner' }), expected: all(401, 200, 200, 200, 200, 200) },
  {
    call: 'POST organizations/invitations',
    request: async () => ({ method: 'POST', path: 'organizations/invitations', body: { email: `someone${++counter}@example.com` } }),
    expected: all(401, 400, 201, 403, 403, 403),
  },
  { call: 'PATCH organizations/invitations', request: async (f) => ({ method: 'PATCH', path: 'organizations/invitations', body: { id: await freshInvite(f) } }), expected: all(401, 400, 200, 403, 403, 403) },
  { call: 'DELETE organizations/invites', request: async (f) => ({ method: 'DELETE', path: 'organizations/invites', query: { invite_id: await freshInvite(f) } }), expected: all(401, 400, 200, 403, 403, 403) },
  { call: 'DELETE organizations/user/{id}', request: async (f) => ({ method: 'DELETE', path: `organizations/user/${await freshMember(f)}` }), expected: all(401, 400, 200, 403, 403, 403) },
  {
    call: 'GET users/promote',
    request: async (f) => ({ method: 'GET', path: 'users/promote', query: { user_id: await freshMember(f), read_only: 'true', organization_id: f.acmeId } }),
    expected: all(401, 400, 200, 403, 403, 403),
  },
  { call: 'GET billing/current', request: async () => ({ method: 'GET', path: 'billing/current' }), expected: all(401, 200, 200, 200, 200, 403) },
  { call: 'POST billing/payment-methods/setup (Acme account)', request: async (f) => ({ method: 'POST', path: 'billing/payment-methods/setup', body: { billing_account_id: f.acmeBillingId } }), expected: all(401, 404, 201, 404, 403, 403) },
  { call: 'GET integrations/', request: async (f) => ({ method: 'GET', path: 'integrations/', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET integrations/qryn/trial', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/trial', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET integrations/qryn/cancellation', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/cancellation', query: { project_id: f.productionId } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET users/products', request: async () => ({ method: 'GET', path: 'users/products' }), expected: all(401, 200, 200, 200, 200, 403) },
  { call: 'GET products', request: async () => ({ method: 'GET', path: 'products' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET integrations/status', request: async () => ({ method: 'GET', path: 'integrations/status' }), expected: all(401, 200, 200, 200, 200, 200) },
  // The stack's writes (ClickHouse's back end answers enable): anyone who may write in the project.
  { call: 'POST integrations/{product}/', request: async (f) => ({ method: 'POST', path: 'integrations/clickhouse/', query: { project_id: await freshOrgProject(f) }, body: {} }), expected: all(401, 404, 201, 201, 403, 403) },
  {
    call: 'POST integrations/{integration}/cancel',
    request: async (f) => {
      const projectId = await freshOrgProject(f);
      await createIntegration(f.api.db, { projectId, productSlug: 'clickhouse', status: 'trial', creatorUserId: null, trialDays: 14 });
      return { method: 'POST', path: 'integrations/clickhouse/cancel', query: { project_id: projectId } };
    },
    expected: all(401, 404, 200, 200, 403, 403),
  },
  { call: 'GET users/organizations', request: async () => ({ method: 'GET', path: 'users/organizations' }), expected: all(401, 200, 200, 200, 200, 200) },

  // Billing: a user's own accounts in any mode they may write in; the organization's account only for its owner.
  { call: 'POST billing/', request: async () => ({ method: 'POST', path: 'billing/', body: { name: `Matrix account ${++counter}` } }), expected: all(401, 201, 201, 201, 403, 403) },
  {
    call: 'POST billing/payment-methods/attach (Acme account)',
    // The seeded card confirmed for the Acme account, so only the caller's right decides the answer.
    request: async (f) => ({ method: 'POST', path: 'billing/payment-methods/attach', body: { billing_account_id: f.acmeBillingId, payment_method_id: 'pm_local_demo4242' } }),
    expected: all(401, 404, 200, 404, 403, 403),
  },
  {
    call: 'POST billing/tax-id (Acme account)',
    request: async (f) => ({ method: 'POST', path: 'billing/tax-id', body: { billing_account_id: f.acmeBillingId, country: 'DE', type: 'eu_vat', value: `DE${100000000 + ++counter}` } }),
    expected: all(401, 404, 201, 404, 403, 403),
  },
  {
    call: 'DELETE billing/tax-id (Acme account)',
    request: async (f) => ({ method: 'DELETE', path: 'billing/tax-id', query: { billing_account_id: f.acmeBillingId, tax_id: await freshAcmeTaxId(f) } }),
    expected: all(401, 404, 200, 404, 403, 403),
  },
  { call: 'GET billing/invoices', request: async () => ({ method: 'GET', path: 'billing/invoices' }), expected: all(401, 200, 200, 200, 200, 403) },
  // The local provider's pay-now page: the link's token is the capability, as on the hosted provider's invoice page.
  { call: 'GET payments/local/invoices/{token}/pay (public)', request: async (f) => ({ method: 'GET', path: `payments/local/invoices/${await freshAcmeInvoiceToken(f)}/pay` }), expected: all(200, 200, 200, 200, 200, 200) },
  {
    call: 'POST payments/local/setup-intents/{client_secret}/confirm (Acme account)',
    request: async (f) => ({ method: 'POST', path: `payments/local/setup-intents/${await freshAcmeSetupIntent(f)}/confirm`, body: card }),
    expected: all(401, 404, 200, 404, 403, 403),
  },
  // The caller's own account names, for the create-organization wizard: user-level, any mode.
  { call: 'GET stripe/billing-account-id', request: async () => ({ method: 'GET', path: 'stripe/billing-account-id', query: { name: 'Acme billing' } }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET billing/unfinished', request: async () => ({ method: 'GET', path: 'billing/unfinished' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET stripe/config (public)', request: async () => ({ method: 'GET', path: 'stripe/config' }), expected: all(200, 200, 200, 200, 200, 200) },

  // Organizations: anyone signed in may create one of their own (read-only members too), but only one.
  {
    call: 'POST organizations/',
    request: async (f, role) => {
      const caller = await freshCaller(f, role);
      const billingAccountId = caller.userId ? await freshCardAccount(f, caller.userId) : f.acmeBillingId;
      return { method: 'POST', path: 'organizations/', body: { display_name: `Matrix org ${counter}`, billing_account_id: billingAccountId }, caller };
    },
    // The owner already owns an organization: one per user.
    expected: all(401, 201, 409, 201, 201, 201),
  },
  { call: 'POST organizations/invitations/{id}/resend', request: async (f) => ({ method: 'POST', path: `organizations/invitations/${await freshInvite(f)}/resend` }), expected: all(401, 400, 200, 403, 403, 403) },
  {
    call: 'POST organizations/invitations/accept',
    request: async (f, role) => {
      const caller = await freshCaller(f, role);
      const email = caller.userId ? (await f.api.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [caller.userId]))[0].email : undefined;
      return { method: 'POST', path: 'organizations/invitations/accept', query: { code: await freshInviteCode(f, email) }, caller };
    },
    expected: all(401, 200, 200, 200, 200, 200),
  },
  {
    // Someone else's invitation: refused for every signed-in caller, whatever their role.
    call: 'POST organizations/invitations/accept (invited another address)',
    request: async (f, role) => ({ method: 'POST', path: 'organizations/invitations/accept', query: { code: await freshInviteCode(f) }, caller: await freshCaller(f, role) }),
    expected: all(401, 403, 403, 403, 403, 403),
  },

  // The caller's own account: allowed to every signed-in user in every mode, read-only members included.
  {
    call: 'PATCH users',
    request: async (f, role) => ({ method: 'PATCH', path: 'users', body: { given_name: 'Changed', family_name: 'Name' }, caller: await freshCaller(f, role) }),
    expected: all(401, 200, 200, 200, 200, 200),
  },
  {
    call: 'PATCH users/password',
    request: async (f, role) => ({ method: 'PATCH', path: 'users/password', body: { password: 'Changed1234!' }, caller: await freshCaller(f, role) }),
    expected: all(401, 200, 200, 200, 200, 200),
  },
  {
    call: 'POST users/resend-verification',
    request: async (f, role) => ({ method: 'POST', path: 'users/resend-verification', caller: await freshCaller(f, role) }),
    expected: all(401, 200, 200, 200, 200, 200),
  },
  { call: 'DELETE users', request: async (f, role) => ({ method: 'DELETE', path: 'users', caller: await freshCaller(f, role) }), expected: all(401, 200, 200, 200, 200, 200) },

  // ClickHouse: reference data for everyone signed in; clusters of a project its members read, writers change.
  { call: 'GET regions', request: async () => ({ method: 'GET', path: 'regions' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET machines', request: async () => ({ method: 'GET', path: 'machines' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET clickhouse-versions', request: async () => ({ method: 'GET', path: 'clickhouse-versions' }), expected: all(401, 200, 200, 200, 200, 200) },
  { call: 'GET disk-types', request: async (f) => ({ method: 'GET', path: 'disk-types', query: { project_id: f.productionId, provider_slug: 'aws' } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET zones', request: async (f) => ({ method: 'GET', path: 'zones', query: { project_id: f.productionId, provider_name: 'gcp', region_code: 'us-central1' } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET integrations/clickhouse/clusters', request: async (f) => ({ method: 'GET', path: 'integrations/clickhouse/clusters', query: { project_id: await freshClickhouseProject(f) } }), expected: all(401, 404, 200, 200, 200, 403) },
  { call: 'GET integrations/clickhouse/clusters/creation', request: async (f) => ({ method: 'GET', path: 'integrations/clickhouse/clusters/creation', query: { project_id: await freshClickhouseProject(f) } }), expected: all(401, 404, 200, 200, 200, 403) },
  {
    call: 'POST integrations/clickhouse/clusters',
    request: async (f) => ({ method: 'POST', path: 'integrations/clickhouse/clusters', query: { project_id: await freshClickhouseProject(f) }, body: clusterBody('matrix') }),
    expected: all(401, 404, 201, 201, 403, 403),
  },
  {
    call: 'DELETE integrations/clickhouse/clusters',
    request: async (f) => {
      const { projectId, clusterId } = await freshClickhouseCluster(f);
      return { method: 'DELETE', path: 'integrations/clickhouse/clusters', query: { project_id: projectId, cluster_id: clusterId } };
    },
    expected: all(401, 404, 202, 202, 403, 403),
  },
  {
    call: 'PATCH integrations/clickhouse/clusters',
    request: async (f) => {
      const { projectId, clusterId } = await freshClickhouseCluster(f);
      return { method: 'PATCH', path: 'integrations/clickhouse/clusters', query: { project_id: projectId, cluster_id: clusterId }, body: { replace: true, ip_list: ['10.0.0.0/8'] } };
    },
    expected: all(401, 404, 200, 200, 403, 403),
  },
  {
    call: 'GET clusters/{name}/metadata',
    request: async (f) => ({ method: 'GET', path: 'clusters/matrix/metadata', query: { project_id: (await freshClickhouseCluster(f)).projectId } }),
    expected: all(401, 404, 200, 200, 200, 403),
  },
  {
    call: 'GET clusters/{name}/metrics',
    request: async (f) => ({ method: 'GET', path: 'clusters/matrix/metrics', query: { project_id: (await freshClickhouseCluster(f)).projectId } }),
    expected: all(401, 404, 200, 200, 200, 403),
  },

  // Public: the console counts events before sign-in too.
  { call: 'POST telemetry (public)', request: async () => ({ method: 'POST', path: 'telemetry', body: { events: [{ name: 'matrix' }] } }), expected: all(202, 202, 202, 202, 202, 202) },

  // qryn (Acme Production has an instance): reads for every member who sees the project, read-only included (the
  // Overview); keys, tokens and settings need write access.
  ...qrynRows(),

  // Loggen (Acme Staging has it): the catalogue for everyone signed in; the configuration for members who see the
  // project (without the secret for read-only ones); saving, running and stopping need write access. POST run is
  // not in the matrix: it streams until its job ends, and this harness runs no jobs (tests/api/loggen.test.ts has it).
  ...loggenRows(),

  // Grafana (Acme Production has it): reads for every member who sees the project, read-only included; the
  // provisioning files (they carry credentials) and every change need write access; users only in organization mode.
  ...grafanaRows(),
  // Hepic (enabled on Acme Staging by demo@, its admin; dev@ and viewer@ are listed as users): reads for listed
  // people, tokens for listed people with write access, user management and switches for Hepic admins only.
  ...hepicRows(),
];

function grafanaRows(): Row[] {
  const project = (f: Fixture) => ({ project_id: f.productionId });
  const read = all(401, 404, 200, 200, 200, 403);
  const write = all(401, 404, 200, 200, 403, 403);
  const freshCluster = async (f: Fixture, withDatasource: boolean) => {
    const name = `gm${++counter}`;
    const cluster = await insertCluster(f.api.db, {
      project_id: f.productionId, integration_id: null, name, status: 'active', is_external: false, provider: 'aws', region_code: 'eu-central-1',
      machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [], control_plane_zone: null, ip_safe_list: [],
      admin_user: 'admin_one', admin_password_sha256: null, pending_admin_secret: null, host: '127.0.0.1', http_port: 1, tcp_port: 1, secure: false,
      external_credentials: null, created_by: null,
    });
    if (withDatasource) {
      const integration = (await f.api.db.query<{ id: number }>("SELECT id FROM integrations WHERE project_id = $1 AND product_slug = 'grafana'", [f.productionId]))[0].id;
      await insertDatasource(f.api.db, {
        integration_id: integration, project_id: f.productionId, kind: 'clickhouse', cluster_id: cluster.id, uid: `matrix-ch-${counter}`, name: `Matrix ${counter}`,
        type: 'grafana-clickhouse-datasource', url: 'http://127.0.0.1:1', remote_id: counter, org_id: 1, model: { uid: `matrix-ch-${counter}`, name: `Matrix ${counter}`, type: 'grafana-clickhouse-datasource', access: 'proxy', url: 'http://127.0.0.1:1', basicAuth: false, isDefault: false, jsonData: {} }, secure_sealed: null,
      });
    }
    return { id: cluster.id, name };
  };
  const dev = async (f: Fixture) => {
    const user = await f.api.user('dev@example.com');
    return { users: [{ id: user.id, email: user.email, name: 'Dev' }], project_id: f.productionId };
  };
  return [
    { call: 'GET integrations/grafana/config', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/config', query: project(f) }), expected: read },
    { call: 'GET integrations/grafana/datasources', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/datasources', query: project(f) }), expected: read },
    { call: 'GET integrations/grafana/qryn-datasources', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/qryn-datasources', query: project(f) }), expected: read },
    { call: 'GET integrations/grafana/dashboards', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/dashboards', query: project(f) }), expected: read },
    { call: 'GET integrations/grafana/users', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/users', query: project(f) }), expected: read },
    { call: 'GET integrations/grafana/export-dashboards', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/export-dashboards', query: project(f) }), expected: read },
    { call: 'GET integrations/grafana/provisioning', request: async (f) => ({ method: 'GET', path: 'integrations/grafana/provisioning', query: project(f) }), expected: write },
    {
      call: 'POST integrations/grafana/datasources',
      request: async (f) => {
        const cluster = await freshCluster(f, false);
        return { method: 'POST', path: 'integrations/grafana/datasources', query: project(f), body: { type: 'clickhouse', cluster_id: cluster.id, name: `ClickHouse (matrix - ${cluster.name})` } };
      },
      expected: all(401, 404, 201, 201, 403, 403),
    },
    {
      call: 'POST integrations/grafana/dashboards',
      request: async (f) => ({ method: 'POST', path: 'integrations/grafana/dashboards', query: project(f), body: { product_clickhouse_clusters: [(await freshCluster(f, true)).id] } }),
      expected: all(401, 404, 201, 201, 403, 403),
    },
    { call: 'POST integrations/grafana/users', request: async (f) => ({ method: 'POST', path: 'integrations/grafana/users', body: await dev(f) }), expected: all(401, 403, 201, 201, 403, 403) },
    { call: 'POST integrations/grafana/auto-add', request: async (f) => ({ method: 'POST', path: 'integrations/grafana/auto-add', query: project(f), body: { enabled: false } }), expected: write },
  ];
}

function hepicRows(): Row[] {
  // One per harness (the rows are shared by the PGlite and the PostgreSQL run).
  const ready = new WeakMap<ApiHarness, Promise<number>>();
  /** Acme Staging with Hepic, enabled once per harness. */
  const staging = (f: Fixture) => {
    const existing = ready.get(f.api);
    if (existing) return existing;
    const enabling = (async () => {
      const projectId = (await f.api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
      const { instance } = await enableHepic(f.api, projectId, (await f.api.user('demo@example.com')).id, f.acmeId);
      const listed = [await f.api.user('dev@example.com'), await f.api.user('viewer@example.com')];
      await addUsers(f.api.db, instance.integration_id, listed.map((u) => ({ userId: u.id, group: 'user' })));
      return projectId;
    })();
    ready.set(f.api, enabling);
    return enabling;
  };
  const project = async (f: Fixture) => ({ project_id: await staging(f) });
  /** A fresh member of the project, listed in Hepic when `listed`. */
  const freshProjectUser = async (f: Fixture, listed: boolean) => {
    const projectId = await staging(f);
    const user = await createUser(f.api.db, { email: `hepic${++counter}@example.com`, givenName: 'H', familyName: String(counter), emailVerified: true });
    await addMember(f.api.db, { organizationId: f.acmeId, userId: user.id, readOnly: false, projectIds: [] });
    await addProjectUser(f.api.db, projectId, user.id);
    if (listed) await addUsers(f.api.db, (await findHepicInstance(f.api.db, projectId))!.integration_id, [{ userId: user.id, group: 'user' }]);
    return user.id;
  };
  const listedRead = all(401, 404, 200, 200, 200, 403);
  const adminOnly = (ok: number) => all(401, 404, ok, 403, 403, 403);
  return [
    { call: 'GET integrations/hepic/plans', request: async () => ({ method: 'GET', path: 'integrations/hepic/plans' }), expected: all(401, 200, 200, 200, 200, 200) },
    { call: 'GET integrations/hepic/cloud/resources', request: async (f) => ({ method: 'GET', path: 'integrations/hepic/cloud/resources', query: await project(f) }), expected: listedRead },
    { call: 'GET integrations/hepic/config', request: async (f) => ({ method: 'GET', path: 'integrations/hepic/config', query: await project(f) }), expected: listedRead },
    { call: 'GET integrations/hepic/statistics', request: async (f) => ({ method: 'GET', path: 'integrations/hepic/statistics', query: await project(f) }), expected: listedRead },
    { call: 'GET integrations/hepic/users', request: async (f) => ({ method: 'GET', path: 'integrations/hepic/users', query: await project(f) }), expected: listedRead },
    { call: 'GET integrations/hepic/users/candidates', request: async (f) => ({ method: 'GET', path: 'integrations/hepic/users/candidates', query: await project(f) }), expected: listedRead },
    { call: 'GET integrations/hepic/tokens', request: async (f) => ({ method: 'GET', path: 'integrations/hepic/tokens', query: { ...(await project(f)), active: 'true' } }), expected: all(401, 404, 200, 200, 403, 403) },
    {
      call: 'POST integrations/hepic/tokens',
      request: async (f) => ({ method: 'POST', path: 'integrations/hepic/tokens', query: await project(f), body: { name: 'matrix', scope: 'read', ttl_days: 1 } }),
      expected: all(401, 404, 201, 201, 403, 403),
    },
    {
      call: 'POST integrations/hepic/users',
      request: async (f) => ({ method: 'POST', path: 'integrations/hepic/users', query: await project(f), body: { users: [{ user_id: await freshProjectUser(f, false), group: 'user' }] } }),
      expected: adminOnly(201),
    },
    {
      call: 'DELETE integrations/hepic/users',
      request: async (f) => ({ method: 'DELETE', path: 'integrations/hepic/users', query: { ...(await project(f)), user_id: await freshProjectUser(f, true) } }),
      expected: adminOnly(200),
    },
    {
      call: 'PATCH integrations/hepic/users/role',
      request: async (f) => ({ method: 'PATCH', path: 'integrations/hepic/users/role', query: await project(f), body: { users: [{ user_id: await freshProjectUser(f, true), group: 'admin' }], has_confirmed: true } }),
      expected: adminOnly(200),
    },
    { call: 'POST integrations/hepic/auto-add', request: async (f) => ({ method: 'POST', path: 'integrations/hepic/auto-add', query: await project(f), body: { enabled: false } }), expected: adminOnly(200) },
    { call: 'POST integrations/hepic/key/rotate', request: async (f) => ({ method: 'POST', path: 'integrations/hepic/key/rotate', query: await project(f) }), expected: adminOnly(200) },
    { call: 'PATCH integrations/hepic/metric', request: async (f) => ({ method: 'PATCH', path: 'integrations/hepic/metric', query: await project(f), body: { enabled: true } }), expected: adminOnly(200) },
  ];
}

function loggenRows(): Row[] {
  const staging = async (f: Fixture) => ({ project_id: (await f.api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id });
  const config = {
    url: 'http://127.0.0.1:9/qryn/matrix',
    headers: [],
    api_key: 'k',
    api_secret: 's',
    labels: [{ key: 'app', value: 'matrix' }],
    rate: 5,
    timeout: '5s',
    log_config: { format: 'json', structure: [{ name: 'level', expression: '{{app.level}}' }] },
    enable_metrics: false,
    traces: { enabled: false, custom: false, spans: [] },
  };
  return [
    { call: 'GET integrations/loggen/config/logs/categories', request: async () => ({ method: 'GET', path: 'integrations/loggen/config/logs/categories' }), expected: all(401, 200, 200, 200, 200, 200) },
    { call: 'GET integrations/loggen/config/logs', request: async () => ({ method: 'GET', path: 'integrations/loggen/config/logs' }), expected: all(401, 200, 200, 200, 200, 200) },
    { call: 'GET integrations/loggen/config', request: async (f) => ({ method: 'GET', path: 'integrations/loggen/config', query: await staging(f) }), expected: all(401, 404, 200, 200, 200, 403) },
    { call: 'PATCH integrations/loggen/config', request: async (f) => ({ method: 'PATCH', path: 'integrations/loggen/config', query: await staging(f), body: config }), expected: all(401, 404, 200, 200, 403, 403) },
    { call: 'GET integrations/loggen/run', request: async (f) => ({ method: 'GET', path: 'integrations/loggen/run', query: await staging(f) }), expected: all(401, 404, 204, 204, 204, 403) },
    { call: 'POST integrations/loggen/run/stop', request: async (f) => ({ method: 'POST', path: 'integrations/loggen/run/stop', query: await staging(f) }), expected: all(401, 404, 200, 200, 403, 403) },
  ];
}

function qrynRows(): Row[] {
  const project = (f: Fixture) => ({ project_id: f.productionId });
  const read = all(401, 404, 200, 200, 200, 403);
  const write = all(401, 404, 200, 200, 403, 403);
  const freshToken = async (f: Fixture) => {
    const instance = (await findInstanceOfProject(f.api.db, f.productionId))!;
    return (await insertToken(f.api.db, { instanceId: instance.id, name: `matrix ${++counter}`, scope: 'read', token: `qt_matrix_${counter}_${Date.now()}`, creatorUserId: null })).id;
  };
  return [
    { call: 'GET integrations/qryn/cloud/resources', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/cloud/resources', query: project(f) }), expected: read },
    { call: 'GET integrations/qryn/writer-regions', request: async () => ({ method: 'GET', path: 'integrations/qryn/writer-regions' }), expected: all(401, 200, 200, 200, 200, 200) },
    { call: 'GET integrations/qryn/retention/policies', request: async () => ({ method: 'GET', path: 'integrations/qryn/retention/policies' }), expected: all(401, 200, 200, 200, 200, 200) },
    { call: 'GET integrations/qryn/config', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/config', query: project(f) }), expected: read },
    {
      call: 'GET integrations/qryn/metrics',
      request: async (f) => ({ method: 'GET', path: 'integrations/qryn/metrics', query: { ...project(f), start: 0, end: Math.floor(Date.now() / 1000) } }),
      expected: read,
    },
    { call: 'GET integrations/qryn/costs', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/costs', query: project(f) }), expected: read },
    { call: 'GET integrations/qryn/instrumented-applications', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/instrumented-applications', query: project(f) }), expected: read },
    // A well-formed choice of a cluster the project does not have: who may instrument gets to the cluster check (400 at the field, spec 001 §8).
    { call: 'POST integrations/qryn/instrument', request: async (f) => ({ method: 'POST', path: 'integrations/qryn/instrument', query: project(f), body: { cluster_ids: ['999999'] } }), expected: all(401, 404, 400, 400, 403, 403) },
    { call: 'GET integrations/qryn/tokens', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/tokens', query: project(f) }), expected: write },
    { call: 'POST integrations/qryn/tokens', request: async (f) => ({ method: 'POST', path: 'integrations/qryn/tokens', body: { name: 'matrix', scope: 'read', project_id: f.productionId } }), expected: all(401, 404, 201, 201, 403, 403) },
    { call: 'DELETE integrations/qryn/tokens/{id}', request: async (f) => ({ method: 'DELETE', path: `integrations/qryn/tokens/${await freshToken(f)}`, query: project(f) }), expected: write },
    { call: 'GET integrations/qryn/config/credentials/rotate', request: async (f) => ({ method: 'GET', path: 'integrations/qryn/config/credentials/rotate', query: project(f) }), expected: write },
    { call: 'PATCH integrations/qryn/retention/policies', request: async (f) => ({ method: 'PATCH', path: 'integrations/qryn/retention/policies', query: project(f), body: { ttl_addon_id: 'retention-7d' } }), expected: write },
    { call: 'PATCH integrations/qryn/fingerprints/limit', request: async (f) => ({ method: 'PATCH', path: 'integrations/qryn/fingerprints/limit', query: project(f), body: { limit: 0 } }), expected: write },
    { call: 'PATCH integrations/qryn/cache', request: async (f) => ({ method: 'PATCH', path: 'integrations/qryn/cache', query: project(f), body: { enabled: true } }), expected: write },
    { call: 'PATCH integrations/qryn/drilldown', request: async (f) => ({ method: 'PATCH', path: 'integrations/qryn/drilldown', query: project(f), body: { enabled: false } }), expected: write },
  ];
}

describe.each(databaseTargets())('role × call matrix ($kind)', (target) => {
  let fixture: Fixture;
  const tokens: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    // Loggen's target in the matrix is a local address: allowed here as an operator would for a LAN installation.
    const api = await startApi(target, { products: true, env: { OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1' } });
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    const acmeBillingId = (await api.db.query<{ billing_account_id: number }>('SELECT billing_account_id FROM organizations WHERE id = $1', [acmeId]))[0].billing_account_id;
    fixture = { api, acmeId, productionId, acmeBillingId };
    await enableQryn(api, productionId, (await api.user('demo@example.com')).id, acmeId);
    tokens.personal = await api.tokenFor('new@example.com');
    tokens.owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    tokens.readWrite = await api.tokenFor('dev@example.com', { organizationId: acmeId });
    tokens.readOnly = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
    tokens.nonMember = await api.tokenFor('new@example.com', { organizationId: acmeId });
  });
  afterAll(async () => fixture?.api.close());

  for (const row of ROWS) {
    it.each(ROLES)(`${row.call} as %s`, async (role) => {
      const request = await row.request(fixture, role);
      const response = await fixture.api.request(request.method, request.path, {
        token: request.caller ? request.caller.token : tokens[role],
        query: request.query,
        body: request.body ?? (request.method === 'POST' || request.method === 'PATCH' ? {} : undefined),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(row.expected[role]);
      if (response.status >= 400) expect(response.body).toMatchObject({ message: expect.any(String), description: expect.any(String) });
    });
  }

  it('the seeded callers are untouched: account-level rows acted on fresh users', async () => {
    for (const email of ['demo@example.com', 'dev@example.com', 'viewer@example.com', 'new@example.com']) await fixture.api.user(email);
    const newcomer = await fixture.api.user('new@example.com');
    const memberships = await fixture.api.db.query('SELECT organization_id FROM organization_members WHERE user_id = $1', [newcomer.id]);
    expect(memberships).toEqual([]);
  });

  it('a read-write member does not see the billing account but is told it is not manageable', async () => {
    const response = await fixture.api.request('GET', 'billing/current', { token: tokens.readWrite });
    expect(response.body).toEqual({ billing_account: null, manageable: false });
  });

  it('an organization that is read-only as a whole refuses writes even from its owner', async () => {
    await fixture.api.db.query('UPDATE organizations SET read_only = true WHERE id = $1', [fixture.acmeId]);
    try {
      const response = await fixture.api.request('POST', 'projects/', { token: tokens.owner, body: { name: 'Not allowed' } });
      expect(response.status).toBe(403);
      const confirm = await fixture.api.request('POST', `payments/local/setup-intents/${await freshAcmeSetupIntent(fixture)}/confirm`, { token: tokens.owner, body: card });
      expect(confirm.status, JSON.stringify(confirm.body)).toBe(403);
    } finally {
      await fixture.api.db.query('UPDATE organizations SET read_only = false WHERE id = $1', [fixture.acmeId]);
    }
  });
});
