import type { Queryable } from '../database';

export interface OrganizationRow {
  id: number;
  name: string;
  read_only: boolean;
  owner: boolean;
}

/** Organizations the user belongs to; read_only is the user's effective flag there. */
export async function listMemberOrganizations(db: Queryable, userId: string): Promise<OrganizationRow[]> {
  return db.query<OrganizationRow>(
    `SELECT o.id, o.name, (m.read_only OR o.read_only) AS read_only, m.owner
       FROM organization_members m JOIN organizations o ON o.id = m.organization_id
      WHERE m.user_id = $1 ORDER BY o.id`,
    [userId],
  );
}

export async function listOwnedOrganizations(db: Queryable, userId: string): Promise<OrganizationRow[]> {
  return (await listMemberOrganizations(db, userId)).filter((o) => o.owner);
}

/** Trial length of a new organization; after it, organization mode costs a flat monthly price. */
export const ORGANIZATION_TRIAL_DAYS = 14;

export async function createOrganization(
  db: Queryable,
  organization: { name: string; billingAccountId: number; ownerUserId: string; /** Business time (the platform's clock); the database's now() when absent. */ now?: Date },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO organizations (name, billing_account_id, created_by, trial_ends_at)
     VALUES ($1, $2, $3, COALESCE($5::timestamptz, now()) + make_interval(days => $4)) RETURNING id`,
    [organization.name, organization.billingAccountId, organization.ownerUserId, ORGANIZATION_TRIAL_DAYS, organization.now ?? null],
  );
  const id = rows[0].id;
  await db.query('INSERT INTO organization_members (organization_id, user_id, owner, read_only, all_projects) VALUES ($1, $2, true, false, true)', [
    id,
    organization.ownerUserId,
  ]);
  return id;
}

export async function findOrganizationTrialEnd(db: Queryable, organizationId: number): Promise<Date | null | undefined> {
  const rows = await db.query<{ trial_ends_at: Date | null }>('SELECT trial_ends_at FROM organizations WHERE id = $1', [organizationId]);
  return rows.length === 0 ? undefined : rows[0].trial_ends_at;
}

export interface OrganizationUserRow {
  id: string;
  given_name: string;
  family_name: string;
  email: string;
  read_only: boolean;
  owner: boolean;
}

export async function listOrganizationUsers(db: Queryable, organizationId: number): Promise<OrganizationUserRow[]> {
  return db.query<OrganizationUserRow>(
    `SELECT u.id, u.given_name, u.family_name, u.email, m.read_only, m.owner
       FROM organization_members m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 ORDER BY m.owner DESC, m.created_at, u.email`,
    [organizationId],
  );
}

export async function isOrganizationMember(db: Queryable, organizationId: number, userId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2', [organizationId, userId]);
  return rows.length > 0;
}

/** Switches a non-owner between read-only and read-write; false when there is no such non-owner member. */
export async function setMemberReadOnly(db: Queryable, organizationId: number, userId: string, readOnly: boolean): Promise<boolean> {
  const rows = await db.query(
    'UPDATE organization_members SET read_only = $3 WHERE organization_id = $1 AND user_id = $2 AND NOT owner RETURNING user_id',
    [organizationId, userId, readOnly],
  );
  return rows.length > 0;
}

/**
 * Removes a non-owner from the organization, from every project of it and from every integration user list of those
 * projects. Run inside a transaction: the three deletes land together.
 */
export async function removeMember(db: Queryable, organizationId: number, userId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2 AND NOT owner RETURNING user_id', [
    organizationId,
    userId,
  ]);
  if (rows.length === 0) return false;
  await db.query(
    `DELETE FROM integration_users iu USING integrations i, projects p
      WHERE iu.integration_id = i.id AND i.project_id = p.id AND p.organization_id = $1 AND iu.user_id = $2`,
    [organizationId, userId],
  );
  await db.query(
    'DELETE FROM project_members pm USING projects p WHERE pm.project_id = p.id AND p.organization_id = $1 AND pm.user_id = $2',
    [organizationId, userId],
  );
  return true;
}

/** Adds a member with exactly the access an invitation grants (no-op for someone already in the organization). */
export async function addMember(
  db: Queryable,
  member: { organizationId: number; userId: string; readOnly: boolean; projectIds: readonly number[] },
): Promise<void> {
  const limited = member.projectIds.length > 0;
  await db.query(
    `INSERT INTO organization_members (organization_id, user_id, owner, read_only, all_projects) VALUES ($1, $2, false, $3, $4)
     ON CONFLICT (organization_id, user_id) DO NOTHING`,
    [member.organizationId, member.userId, member.readOnly, !limited],
  );
  if (limited) {
    // Only projects that really belong to this organization, so an invitation cannot reach into another one.
    await db.query(
      `INSERT INTO project_members (project_id, user_id)
       SELECT p.id, $2 FROM projects p WHERE p.organization_id = $1 AND p.id = ANY($3::int[])
       ON CONFLICT DO NOTHING`,
      [member.organizationId, member.userId, member.projectIds],
    );
  }
}

/** Deletes the organizations where the user is the only owner (their projects go with them). */
export async function deleteSolelyOwnedOrganizations(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `DELETE FROM organizations o WHERE EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id = $1 AND m.owner)
       AND NOT EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id <> $1 AND m.owner)`,
    [userId],
  );
}

/**
 * Serializes organization creation per user for the rest of the transaction, then says whether the user already
 * owns one: two quick submits cannot create two organizations.
 */
export async function lockAndCheckOwnsOrganization(tx: Queryable, userId: string): Promise<boolean> {
  await tx.query('SELECT pg_advisory_xact_lock(7312, hashtext($1))', [userId]);
  const rows = await tx.query('SELECT 1 FROM organization_members WHERE user_id = $1 AND owner', [userId]);
  return rows.length > 0;
}

/** Organizations the user alone owns that still have other members (account deletion waits for them). */
export async function listSolelyOwnedOrganizationsWithMembers(db: Queryable, userId: string): Promise<{ id: number; name: string }[]> {
  return db.query(
    `SELECT o.id, o.name FROM organizations o
      WHERE EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id = $1 AND m.owner)
        AND NOT EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id <> $1 AND m.owner)
        AND EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id <> $1)
      ORDER BY o.id`,
    [userId],
  );
}

/** Projects that go with the account: the user's personal projects and those of organizations they alone own. */
export async function listProjectsDeletedWithAccount(db: Queryable, userId: string): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT p.id FROM projects p
      WHERE (p.organization_id IS NULL AND p.user_id = $1)
         OR p.organization_id IN (
              SELECT o.id FROM organizations o
               WHERE EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id = $1 AND m.owner)
                 AND NOT EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = o.id AND m.user_id <> $1 AND m.owner))
      ORDER BY p.id`,
    [userId],
  );
  return rows.map((row) => row.id);
}

/**
 * Projects the user created in organizations that stay (they have another owner) are handed to an owner of that
 * organization, so the team keeps them when the creator's account is deleted.
 */
export async function handOverCreatedProjects(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `UPDATE projects p SET user_id = (
        SELECT m.user_id FROM organization_members m WHERE m.organization_id = p.organization_id AND m.owner AND m.user_id <> $1
         ORDER BY m.created_at, m.user_id LIMIT 1)
      WHERE p.user_id = $1 AND p.organization_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = p.organization_id AND m.owner AND m.user_id <> $1)`,
    [userId],
  );
}
