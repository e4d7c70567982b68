import type { Queryable } from '../database';
import type { MembershipRow } from './memberships-repository';

/** What the API must know about a verified token before it answers: is its sign-in ended, and the membership. */
export interface CallerAccess {
  sessionEnded: boolean;
  /** The membership of the token's organization; undefined in personal mode or when not a member. */
  membership: MembershipRow | undefined;
}

// One statement instead of two (ended_sessions, then organization_members ⋈ organizations): on the embedded
// database every statement costs a parse, a plan and a trip through its single thread, and this runs on every
// authenticated request. Both are read fresh each time, so a revoked sign-in or a changed membership counts at once.
const accessSql = `SELECT EXISTS (SELECT 1 FROM ended_sessions WHERE sid = $1::text AND expires_at > now()) AS session_ended,
       m.organization_id, o.name AS organization_name, m.owner, (m.read_only OR o.read_only) AS read_only, m.all_projects
  FROM (SELECT 1) AS one
  LEFT JOIN organization_members m ON m.organization_id = $2::int AND m.user_id = $3
  LEFT JOIN organizations o ON o.id = m.organization_id`;

export async function findCallerAccess(
  db: Queryable,
  token: { sid: string | null; organizationId: number | null; userId: string },
): Promise<CallerAccess> {
  const [row] = await db.query<{ session_ended: boolean } & { [K in keyof MembershipRow]: MembershipRow[K] | null }>(accessSql, [
    token.sid,
    token.organizationId,
    // No membership to look up in personal mode (and no user id to parse as a uuid).
    token.organizationId === null ? null : token.userId,
  ]);
  const { session_ended, ...membership } = row;
  return {
    sessionEnded: session_ended,
    membership: membership.organization_id === null ? undefined : (membership as MembershipRow),
  };
}
