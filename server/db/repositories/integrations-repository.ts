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

/** Every integration of a project, locked, for releasing their back ends before the project is deleted. */
export async function listIntegrationsForRelease(db: Queryable, projectId: number): Promise<{ id: number; product_slug: string; status: string }[]> {
  return db.query('SELECT id, product_slug, status FROM integrations WHERE project_id = $1 ORDER BY id FOR UPDATE', [projectId]);
}
