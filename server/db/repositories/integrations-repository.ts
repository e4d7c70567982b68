import type { Queryable } from '../database';

export interface ProductRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  is_available: boolean;
  tags: string[];
  dependencies: string[];
}

export async function listProducts(db: Queryable): Promise<ProductRow[]> {
  return db.query<ProductRow>('SELECT id, slug, name, description, is_available, tags, dependencies FROM products ORDER BY id');
}

export interface IntegrationRow {
  id: number;
  project_id: number;
  product_slug: string;
  status: string;
  created_at: Date;
  trial_ends_at: Date | null;
  cancellation_at: Date | null;
  creator_id: string | null;
  creator_given_name: string | null;
  creator_family_name: string | null;
  creator_email: string | null;
  /** The asking user is in this integration's user list. */
  is_user_listed: boolean;
}

const select = `SELECT i.id, i.project_id, i.product_slug, i.status, i.created_at, i.trial_ends_at, i.cancellation_at,
  u.id AS creator_id, u.given_name AS creator_given_name, u.family_name AS creator_family_name, u.email AS creator_email,
  EXISTS (SELECT 1 FROM integration_users iu WHERE iu.integration_id = i.id AND iu.user_id = $1) AS is_user_listed
  FROM integrations i LEFT JOIN users u ON u.id = i.creator_user_id`;

export async function listProjectIntegrations(db: Queryable, userId: string, projectId: number): Promise<IntegrationRow[]> {
  return db.query<IntegrationRow>(`${select} WHERE i.project_id = $2 ORDER BY i.id`, [userId, projectId]);
}

export async function findProjectIntegration(db: Queryable, userId: string, projectId: number, productSlug: string): Promise<IntegrationRow | undefined> {
  const rows = await db.query<IntegrationRow>(`${select} WHERE i.project_id = $2 AND i.product_slug = $3`, [userId, projectId, productSlug]);
  return rows[0];
}

/** Integrations of the given projects (the ones a user can see), for the per-product overview. */
export async function listIntegrationsOfProjects(db: Queryable, projectIds: readonly number[]): Promise<{ project_id: number; product_slug: string; status: string }[]> {
  if (projectIds.length === 0) return [];
  return db.query('SELECT project_id, product_slug, status FROM integrations WHERE project_id = ANY($1::int[]) ORDER BY project_id, id', [projectIds]);
}

export async function createIntegration(
  db: Queryable,
  integration: { projectId: number; productSlug: string; status: string; creatorUserId: string | null; trialDays?: number; cancellationAt?: Date },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO integrations (project_id, product_slug, status, creator_user_id, trial_ends_at, cancellation_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END, $6)
     ON CONFLICT (project_id, product_slug) DO UPDATE SET status = EXCLUDED.status RETURNING id`,
    [integration.projectId, integration.productSlug, integration.status, integration.creatorUserId, integration.trialDays ?? null, integration.cancellationAt ?? null],
  );
  return rows[0].id;
}

export async function addIntegrationUser(db: Queryable, integrationId: number, userId: string, role = 'user'): Promise<void> {
  await db.query('INSERT INTO integration_users (integration_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [integrationId, userId, role]);
}

/** True when the project has this product in a state where it is running for the customer. */
export async function hasLiveIntegration(db: Queryable, projectId: number, productSlug: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM integrations WHERE project_id = $1 AND product_slug = $2 AND status IN ('trial', 'active', 'scheduled_for_cancellation')`,
    [projectId, productSlug],
  );
  return rows.length > 0;
}

// ---- The subscription lifecycle (enable, cancel, the lifecycle job). Times come from the business clock. ----

export interface SubscriptionRow {
  id: number;
  project_id: number;
  product_slug: string;
  status: string;
  trial_ends_at: Date | null;
  period_ends_at: Date | null;
  cancellation_at: Date | null;
  /** The billing account that pays for the project has a card on file. */
  has_payment_method: boolean;
}

// Who pays for a project: its own billing account, else its organization's, else its owner's personal one (the
// default account first), the same order the billing area uses for a new project.
const payerHasCard = `COALESCE((
  SELECT b.payment_method_id IS NOT NULL FROM billing_accounts b
   WHERE b.id = COALESCE(p.billing_account_id,
     (SELECT o.billing_account_id FROM organizations o WHERE o.id = p.organization_id),
     (SELECT b2.id FROM billing_accounts b2 WHERE b2.owner_user_id = p.user_id ORDER BY b2.is_default DESC, b2.created_at DESC, b2.id DESC LIMIT 1))
), false)`;

const subscriptionColumns = `i.id, i.project_id, i.product_slug, i.status, i.trial_ends_at, i.period_ends_at, i.cancellation_at,
  ${payerHasCard} AS has_payment_method`;

export async function findSubscription(db: Queryable, integrationId: number): Promise<SubscriptionRow | undefined> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT ${subscriptionColumns} FROM integrations i JOIN projects p ON p.id = i.project_id WHERE i.id = $1`,
    [integrationId],
  );
  return rows[0];
}

/** Subscriptions the lifecycle job may have to move at `now` (a trial or period that ended, a suspension, a due cancellation). */
export async function listDueSubscriptions(db: Queryable, now: Date): Promise<SubscriptionRow[]> {
  return db.query<SubscriptionRow>(
    `SELECT ${subscriptionColumns} FROM integrations i JOIN projects p ON p.id = i.project_id
      WHERE (i.status = 'trial' AND i.trial_ends_at <= $1)
         OR i.status = 'suspended'
         OR (i.status = 'active' AND i.period_ends_at <= $1)
         OR (i.status = 'scheduled_for_cancellation' AND i.cancellation_at <= $1)
      ORDER BY i.id`,
    [now],
  );
}

/**
 * Moves a subscription from one status to another, only if it is still in `from` (two workers, or a request and a
 * worker, never both apply a change). Returns false when someone else moved it first.
 */
export async function moveSubscription(
  db: Queryable,
  integrationId: number,
  from: string,
  to: { status: string; now: Date; periodEndsAt?: Date | null; cancellationAt?: Date | null },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE integrations SET status = $3, status_changed_at = $4,
       period_ends_at = CASE WHEN $5::boolean THEN $6::timestamptz ELSE period_ends_at END,
       cancellation_at = CASE WHEN $7::boolean THEN $8::timestamptz ELSE cancellation_at END
     WHERE id = $1 AND status = $2 RETURNING id`,
    [
      integrationId,
      from,
      to.status,
      to.now,
      to.periodEndsAt !== undefined,
      to.periodEndsAt ?? null,
      to.cancellationAt !== undefined,
      to.cancellationAt ?? null,
    ],
  );
  return rows.length > 0;
}

export async function markReleased(db: Queryable, integrationId: number, at: Date): Promise<void> {
  await db.query('UPDATE integrations SET released_at = $2 WHERE id = $1', [integrationId, at]);
}

/**
 * Records an enabled product: a new row, or a cancelled one that starts again (new trial, new creator, new date).
 * Returns undefined when the product is already enabled in the project in any other status.
 */
export async function recordEnabledIntegration(
  db: Queryable,
  integration: { projectId: number; productSlug: string; creatorUserId: string; now: Date; trialEndsAt: Date },
): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO integrations (project_id, product_slug, status, creator_user_id, created_at, trial_ends_at, status_changed_at)
     VALUES ($1, $2, 'trial', $3, $4, $5, $4)
     ON CONFLICT (project_id, product_slug) DO UPDATE SET status = 'trial', creator_user_id = EXCLUDED.creator_user_id,
       created_at = EXCLUDED.created_at, trial_ends_at = EXCLUDED.trial_ends_at, status_changed_at = EXCLUDED.created_at,
       period_ends_at = NULL, cancellation_at = NULL, released_at = NULL
       WHERE integrations.status = 'cancelled_by_user'
     RETURNING id`,
    [integration.projectId, integration.productSlug, integration.creatorUserId, integration.now, integration.trialEndsAt],
  );
  return rows[0]?.id;
}

/** The same product's live subscriptions in every project of an organization (Grafana is one per organization). */
export async function listOrganizationSubscriptions(db: Queryable, organizationId: number, productSlug: string): Promise<SubscriptionRow[]> {
  return db.query<SubscriptionRow>(
    `SELECT ${subscriptionColumns} FROM integrations i JOIN projects p ON p.id = i.project_id
      WHERE p.organization_id = $1 AND i.product_slug = $2 AND i.status IN ('trial', 'active', 'suspended')
      ORDER BY i.id`,
    [organizationId, productSlug],
  );
}

/** Every integration of a project, locked, for releasing their back ends before the project is deleted. */
export async function listIntegrationsForRelease(db: Queryable, projectId: number): Promise<{ id: number; product_slug: string; status: string }[]> {
  return db.query('SELECT id, product_slug, status FROM integrations WHERE project_id = $1 ORDER BY id FOR UPDATE', [projectId]);
}
