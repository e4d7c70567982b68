import type { Database, Queryable } from '../db/database';
import { createUser, findUserByEmail } from '../db/repositories/users-repository';
import { createBillingAccount } from '../db/repositories/billing-repository';
import { addMember, createOrganization } from '../db/repositories/organizations-repository';
import { addProjectUser, createProject } from '../db/repositories/projects-repository';
import { addIntegrationUser, createIntegration } from '../db/repositories/integrations-repository';
import { insertCluster } from '../db/repositories/clickhouse-repository';
import { DEMO_PASSWORD } from '../db/seed';
import type { ProductRegistry } from './product-registry';
import type { ClickhouseBackend } from './clickhouse/clickhouse-backend';
import { clusterSubject, PROVISION_JOB, sha256Hex } from './clickhouse/cluster-records';
import type { JobQueue } from '../jobs/job-queue';

// States of spec 001 that the main demo data (Acme, which pays by card) cannot show, written by `npm start` beside
// it so that a designer or QA can open each one (README, "Demo accounts"):
// - nocard@example.com: a personal account with no card and ClickHouse enabled — the "no payment method" rules of
//   the create page (one cluster, default configuration only, machine and disks locked, 1 shard, 2 replicas).
// - the organization Globex (no card either): ops@example.com owns it and is Hepic's superadmin;
//   analyst@example.com is a read-write member who is a Hepic *user* (not admin, not read-only): the Hepic pages
//   without the admin's controls. Its project also has a ClickHouse cluster in **creating**: its provisioning job
//   is queued to start CREATING_HOLD_MS after the states are written, so the creating state (progress, delete
//   disabled) can be looked at before the cluster becomes active like any other.
// Not part of the seed the tests use (they count the seed's rows); written only when asked (startPlatform's
// demoStates, on in `npm start` with demo data) and once per database (nocard@example.com present = written).

export const CREATING_HOLD_MS = 15 * 60_000;
export const DEMO_CREATING_CLUSTER = 'voice-logs';

export async function seedDemoStates(
  db: Database,
  products: ProductRegistry,
  jobs: JobQueue,
  log: (message: string) => void,
): Promise<{ written: boolean }> {
  const written = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7314)');
    if (await findUserByEmail(tx, 'nocard@example.com')) return undefined;
    return writeStates(tx);
  });
  if (!written) return { written: false };
  // Hepic's instance (its storage) as its enable call would have made it, outside the transaction above.
  const hepic = products.get('hepic');
  if (hepic) {
    try {
      const request = { integrationId: written.hepic, projectId: written.project, userId: written.ops, organizationId: written.organization, input: (await hepic.defaultInput?.(written.project)) ?? {} };
      await db.transaction((tx) => hepic.enable(tx, request));
    } catch (error) {
      log(`[demo] Hepic of Globex was not provisioned: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const clickhouse = products.get('clickhouse') as ClickhouseBackend | undefined;
  if (clickhouse) {
    const sealed = (await clickhouse.credentials()).seal({ password: DEMO_PASSWORD });
    await db.transaction(async (tx) => {
      const cluster = await insertCluster(tx, {
        project_id: written.project, integration_id: written.clickhouse, name: DEMO_CREATING_CLUSTER, status: 'creating', is_external: false,
        provider: 'aws', region_code: 'eu-central-1', machine: 'm5_large', shards: 1, replicas: 2,
        disks: [{ name: 'default', type: 'gp3', size: 150, unit_type: 'Decimal' }], version: '18.16', zonal: false, zones: [], control_plane_zone: null,
        ip_safe_list: [], admin_user: 'globex_admin', admin_password_sha256: sha256Hex(DEMO_PASSWORD), pending_admin_secret: sealed,
        host: '', http_port: 0, tcp_port: 0, secure: false, external_credentials: null, created_by: written.ops,
      });
      await jobs.enqueue(tx, PROVISION_JOB, { subject: clusterSubject(cluster.id), payload: { clusterId: cluster.id }, maxAttempts: 1, delayMs: CREATING_HOLD_MS });
    });
  }
  return { written: true };
}

async function writeStates(db: Queryable) {
  const person = (email: string, givenName: string, familyName: string) => createUser(db, { email, password: DEMO_PASSWORD, givenName, familyName, emailVerified: true });
  const trial = await person('nocard@example.com', 'Nico', 'Nocard');
  const ops = await person('ops@example.com', 'Olga', 'Ops');
  const analyst = await person('analyst@example.com', 'Andy', 'Analyst');

  // No card anywhere: the personal account's own billing account has no payment method.
  const trialBilling = await createBillingAccount(db, { name: 'Nico Nocard', ownerUserId: trial.id, isDefault: true });
  const sandbox = await createProject(db, { name: 'Trial Sandbox', organizationId: null, userId: trial.id, billingAccountId: trialBilling.id });
  await createIntegration(db, { projectId: sandbox.id, productSlug: 'clickhouse', status: 'trial', creatorUserId: trial.id, trialDays: 14 });

  const globexBilling = await createBillingAccount(db, { name: 'Globex billing', ownerUserId: ops.id, isDefault: true, forOrganization: true });
  const organization = await createOrganization(db, { name: 'Globex', billingAccountId: globexBilling.id, ownerUserId: ops.id });
  await addMember(db, { organizationId: organization, userId: analyst.id, readOnly: false, projectIds: [] });
  const voice = await createProject(db, { name: 'Globex Voice', organizationId: organization, userId: ops.id, billingAccountId: globexBilling.id });
  await addProjectUser(db, voice.id, analyst.id);
  const hepic = await createIntegration(db, { projectId: voice.id, productSlug: 'hepic', status: 'trial', creatorUserId: ops.id, trialDays: 14 });
  await addIntegrationUser(db, hepic, ops.id, 'admin');
  await addIntegrationUser(db, hepic, analyst.id, 'user');
  const clickhouse = await createIntegration(db, { projectId: voice.id, productSlug: 'clickhouse', status: 'trial', creatorUserId: ops.id, trialDays: 14 });
  return { ops: ops.id, organization, project: voice.id, hepic, clickhouse };
}
