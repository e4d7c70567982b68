import type { Queryable } from '../database';

export interface MembershipRow {
  organization_id: number;
  organization_name: string;
  owner: boolean;
  /** Read-only through the membership or because the whole organization is read-only. */
  read_only: boolean;
  all_projects: boolean;
}

export async function findMembership(db: Queryable, organizationId: number, userId: string): Promise<MembershipRow | undefined> {
  const rows = await db.query<MembershipRow>(
    `SELECT m.organization_id, o.name AS organization_name, m.owner, (m.read_only OR o.read_only) AS read_only, m.all_projects
       FROM organization_members m JOIN organizations o ON o.id = m.organization_id
      WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
  return rows[0];
}
