import type { Queryable } from '../database';
import { projectSlug } from '../../../contract/projects';

export interface ProjectRow {
  id: number;
  name: string;
  organization_id: number | null;
  user_id: string;
  billing_account_id: number | null;
  created_at: Date;
}

/** Who is asking, in which mode: organizationId null is the personal account. */
export interface Viewer {
  userId: string;
  organizationId: number | null;
}

const projectColumns = 'p.id, p.name, p.organization_id, p.user_id, p.billing_account_id, p.created_at';

// The one definition of "projects this viewer may see": in personal mode their own personal projects; in
// organization mode the organization's projects, all of them or (for a member limited by their invitation) only
// those where they are a project member. Non-members see nothing.
const visibleWhere = `(
  ($2::int IS NULL AND p.organization_id IS NULL AND p.user_id = $1)
  OR ($2::int IS NOT NULL AND p.organization_id = $2 AND EXISTS (
        SELECT 1 FROM organization_members m
         WHERE m.organization_id = $2 AND m.user_id = $1
           AND (m.all_projects OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.user_id = $1))))
)`;

export async function listVisibleProjects(db: Queryable, viewer: Viewer): Promise<ProjectRow[]> {
  return db.query<ProjectRow>(`SELECT ${projectColumns} FROM projects p WHERE ${visibleWhere} ORDER BY p.id`, [
    viewer.userId,
    viewer.organizationId,
  ]);
}

/** One page of the visible projects, by id, and how many there are in all. */
export async function pageVisibleProjects(db: Queryable, viewer: Viewer, page: { limit: number; offset: number }): Promise<{ rows: ProjectRow[]; total: number }> {
  const rows = await db.query<ProjectRow>(`SELECT ${projectColumns} FROM projects p WHERE ${visibleWhere} ORDER BY p.id LIMIT $3 OFFSET $4`, [
    viewer.userId,
    viewer.organizationId,
    page.limit,
    page.offset,
  ]);
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM projects p WHERE ${visibleWhere}`, [viewer.userId, viewer.organizationId]);
  return { rows, total: count.n };
}

/**
 * Projects the account holds: the organization's, or the user's personal ones. Locks the account's row first
 * (the organization, or the user) so two creations at once cannot both pass the limit.
 */
export async function countAccountProjectsForUpdate(db: Queryable, account: Viewer): Promise<number> {
  if (account.organizationId !== null) {
    await db.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [account.organizationId]);
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE organization_id = $1', [account.organizationId]);
    return row.n;
  }
  await db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [account.userId]);
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE organization_id IS NULL AND user_id = $1', [account.userId]);
  return row.n;
}

export async function findVisibleProject(db: Queryable, viewer: Viewer, projectId: number): Promise<ProjectRow | undefined> {
  const rows = await db.query<ProjectRow>(`SELECT ${projectColumns} FROM projects p WHERE ${visibleWhere} AND p.id = $3`, [
    viewer.userId,
    viewer.organizationId,
    projectId,
  ]);
  return rows[0];
}

/**
 * The account that holds a project the user can see in it: its organization's id, or null for the user's personal
 * project; undefined when the user sees it in no account (a shared address opened by someone else).
 */
export async function findProjectAccount(db: Queryable, userId: string, projectId: number): Promise<{ organization_id: number | null } | undefined> {
  const rows = await db.query<{ organization_id: number | null }>(
    `SELECT p.organization_id FROM projects p
      WHERE p.id = $2 AND (
        (p.organization_id IS NULL AND p.user_id = $1)
        OR EXISTS (SELECT 1 FROM organization_members m
                    WHERE m.organization_id = p.organization_id AND m.user_id = $1
                      AND (m.all_projects OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.user_id = $1))))`,
    [userId, projectId],
  );
  return rows[0];
}

export async function createProject(
  db: Queryable,
  project: { name: string; organizationId: number | null; userId: string; billingAccountId: number | null },
): Promise<ProjectRow & { slug: string }> {
  const rows = await db.query<ProjectRow>(
    `INSERT INTO projects (name, organization_id, user_id, billing_account_id) VALUES ($1, $2, $3, $4)
     RETURNING id, name, organization_id, user_id, billing_account_id, created_at`,
    [project.name, project.organizationId, project.userId, project.billingAccountId],
  );
  const row = rows[0];
  // The creator is the first member of the project team.
  await db.query('INSERT INTO project_members (project_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [row.id, project.userId]);
  return { ...row, slug: projectSlug(row.name, row.id) };
}

export async function deleteProject(db: Queryable, projectId: number): Promise<void> {
  await db.query('DELETE FROM projects WHERE id = $1', [projectId]);
}

export interface ProjectUserRow {
  id: string;
  given_name: string;
  family_name: string;
  email: string;
}

export async function listProjectUsers(db: Queryable, projectId: number): Promise<ProjectUserRow[]> {
  return db.query<ProjectUserRow>(
    `SELECT u.id, u.given_name, u.family_name, u.email FROM project_members pm JOIN users u ON u.id = pm.user_id
      WHERE pm.project_id = $1 ORDER BY pm.created_at, u.email`,
    [projectId],
  );
}

/** Adds the user to the project team; false when they were already in it. */
export async function addProjectUser(db: Queryable, projectId: number, userId: string): Promise<boolean> {
  const rows = await db.query('INSERT INTO project_members (project_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING project_id', [
    projectId,
    userId,
  ]);
  return rows.length > 0;
}

/** Which of these project ids belong to the organization. */
export async function findOrganizationProjectIds(db: Queryable, organizationId: number, projectIds: readonly number[]): Promise<number[]> {
  const rows = await db.query<{ id: number }>('SELECT id FROM projects WHERE organization_id = $1 AND id = ANY($2::int[])', [
    organizationId,
    [...projectIds],
  ]);
  return rows.map((r) => r.id);
}
