import type { Database, Queryable } from './database';
import { createUser, findUserByEmail } from './repositories/users-repository';
import { createBillingAccount, setPaymentMethod } from './repositories/billing-repository';
import { addMember, createOrganization } from './repositories/organizations-repository';
import { addProjectUser, createProject } from './repositories/projects-repository';
import { addIntegrationUser, createIntegration } from './repositories/integrations-repository';
import { createInvitation } from './repositories/invitations-repository';

export const DEMO_PASSWORD = 'Demo1234!';

/** The sign-in addresses of the demo accounts (all with DEMO_PASSWORD). */
export const DEMO_ACCOUNT_EMAILS = ['demo@example.com', 'dev@example.com', 'viewer@example.com', 'new@example.com', 'social@example.com'] as const;

/** The accounts of the demo states `npm start` adds (server/products/demo-states.ts), same password. */
export const DEMO_STATE_EMAILS = ['nocard@example.com', 'ops@example.com', 'analyst@example.com'] as const;

/** Which demo accounts exist in this database. */
export async function presentDemoAccounts(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ email: string }>('SELECT email FROM users WHERE lower(email) = ANY($1::text[]) ORDER BY email', [[...DEMO_ACCOUNT_EMAILS, ...DEMO_STATE_EMAILS]]);
  return rows.map((row) => row.email);
}

/** Writes the demo data into an empty database; does nothing when demo@example.com already exists. */
export async function seedDemoData(db: Database): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Serialises concurrent seeds (two instances starting at once): the second sees demo@ and stops.
    await tx.query('SELECT pg_advisory_xact_lock(7313)');
    if (await findUserByEmail(tx, 'demo@example.com')) return { seeded: false };
    await writeDemoData(tx);
    return { seeded: true };
  });
}

async function writeDemoData(db: Queryable): Promise<void> {
  const person = (email: string, givenName: string, familyName: string) =>
    createUser(db, { email, password: DEMO_PASSWORD, givenName, familyName, emailVerified: true });
  const demo = await person('demo@example.com', 'Demo', 'Owner');
  const dev = await person('dev@example.com', 'Dana', 'Developer');
  const viewer = await person('viewer@example.com', 'Vic', 'Viewer');
  await person('new@example.com', 'Nora', 'Newcomer');
  await createUser(db, {
    email: 'social@example.com',
    givenName: 'Sam',
    familyName: 'Social',
    connection: 'google-oauth2',
    emailVerified: true,
  });

  // Acme pays with a card on file (the local provider's test card).
  const billing = await createBillingAccount(db, { name: 'Acme billing', ownerUserId: demo.id, isDefault: true });
  await db.query(
    `INSERT INTO setup_intents (id, client_secret, billing_account_id, status, payment_method_id, payment_method_label)
     VALUES ('seti_local_demo', 'seti_local_demo_secret_seed', $1, 'succeeded', 'pm_local_demo4242', 'visa •••• 4242')`,
    [billing.id],
  );
  await setPaymentMethod(db, billing.id, 'pm_local_demo4242', 'visa •••• 4242');

  const acme = await createOrganization(db, { name: 'Acme', billingAccountId: billing.id, ownerUserId: demo.id });
  await addMember(db, { organizationId: acme, userId: dev.id, readOnly: false, projectIds: [] });
  await addMember(db, { organizationId: acme, userId: viewer.id, readOnly: true, projectIds: [] });

  const production = await createProject(db, { name: 'Acme Production', organizationId: acme, userId: demo.id, billingAccountId: billing.id });
  const staging = await createProject(db, { name: 'Acme Staging', organizationId: acme, userId: demo.id, billingAccountId: billing.id });
  for (const project of [production, staging]) {
    await addProjectUser(db, project.id, dev.id);
    await addProjectUser(db, project.id, viewer.id);
  }
  await createProject(db, { name: 'Personal Sandbox', organizationId: null, userId: demo.id, billingAccountId: billing.id });

  await createInvitation(db, { organizationId: acme, email: 'invited@example.com', invitingUserId: demo.id, readOnly: false, projectIds: [] });

  await createIntegration(db, { projectId: production.id, productSlug: 'qryn', status: 'trial', creatorUserId: demo.id, trialDays: 14 });
  const grafana = await createIntegration(db, { projectId: production.id, productSlug: 'grafana', status: 'active', creatorUserId: demo.id });
  await addIntegrationUser(db, grafana, demo.id, 'admin');
  await addIntegrationUser(db, grafana, dev.id, 'user');
  await createIntegration(db, {
    projectId: staging.id,
    productSlug: 'loggen',
    status: 'scheduled_for_cancellation',
    creatorUserId: dev.id,
    cancellationAt: new Date(Date.now() + 10 * 86_400_000),
  });
}
