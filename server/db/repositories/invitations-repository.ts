import { randomBytes } from 'node:crypto';
import type { Queryable } from '../database';

export const INVITATION_TTL_DAYS = 7;

export interface InvitationRow {
  id: number;
  organization_id: number;
  organization_name: string;
  code: string;
  invited_email: string;
  inviting_user_name: string;
  read_only: boolean;
  project_ids: number[];
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

const select = `SELECT i.id, i.organization_id, o.name AS organization_name, i.code, i.invited_email,
  coalesce(nullif(trim(u.given_name || ' ' || u.family_name), ''), u.email, '') AS inviting_user_name,
  i.read_only, i.project_ids, i.created_at, i.expires_at, i.accepted_at
  FROM invitations i JOIN organizations o ON o.id = i.organization_id LEFT JOIN users u ON u.id = i.inviting_user_id`;

/** A code that cannot be guessed: 32 random bytes, URL-safe. */
export function newInvitationCode(): string {
  return randomBytes(32).toString('base64url');
}

export async function createInvitation(
  db: Queryable,
  invitation: { organizationId: number; email: string; invitingUserId: string; readOnly: boolean; projectIds: readonly number[] },
): Promise<InvitationRow> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO invitations (organization_id, code, invited_email, inviting_user_id, read_only, project_ids, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6::int[], now() + make_interval(days => $7)) RETURNING id`,
    [invitation.organizationId, newInvitationCode(), invitation.email, invitation.invitingUserId, invitation.readOnly, invitation.projectIds, INVITATION_TTL_DAYS],
  );
  return (await findInvitation(db, invitation.organizationId, rows[0].id))!;
}

export async function findInvitation(db: Queryable, organizationId: number, id: number): Promise<InvitationRow | undefined> {
  const rows = await db.query<InvitationRow>(`${select} WHERE i.organization_id = $1 AND i.id = $2`, [organizationId, id]);
  return rows[0];
}

export async function listPendingInvitations(db: Queryable, organizationId: number): Promise<InvitationRow[]> {
  return db.query<InvitationRow>(`${select} WHERE i.organization_id = $1 AND i.accepted_at IS NULL ORDER BY i.created_at, i.id`, [organizationId]);
}

/** An invitation that is still pending for this email (to avoid sending two live invitations to one person). */
export async function findPendingInvitationByEmail(db: Queryable, organizationId: number, email: string): Promise<InvitationRow | undefined> {
  const rows = await db.query<InvitationRow>(
    `${select} WHERE i.organization_id = $1 AND lower(i.invited_email) = lower($2) AND i.accepted_at IS NULL AND i.expires_at > now()`,
    [organizationId, email],
  );
  return rows[0];
}

/** Re-send: a new code (the old link stops working) and a fresh expiry. */
export async function renewInvitation(db: Queryable, organizationId: number, id: number): Promise<InvitationRow | undefined> {
  const rows = await db.query(
    `UPDATE invitations SET code = $3, expires_at = now() + make_interval(days => $4)
      WHERE organization_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING id`,
    [organizationId, id, newInvitationCode(), INVITATION_TTL_DAYS],
  );
  return rows.length > 0 ? findInvitation(db, organizationId, id) : undefined;
}

export async function deleteInvitation(db: Queryable, organizationId: number, id: number): Promise<boolean> {
  const rows = await db.query('DELETE FROM invitations WHERE organization_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING id', [organizationId, id]);
  return rows.length > 0;
}

/**
 * Claims a pending, unexpired invitation for the user, in the caller's transaction. The conditional UPDATE is the
 * lock: of two concurrent accepts of one code, only one gets the row back.
 */
/** The pending (not accepted, not expired) invitation with this code. */
export async function findPendingInvitationByCode(db: Queryable, code: string): Promise<InvitationRow | undefined> {
  const rows = await db.query<InvitationRow>(`${select} WHERE i.code = $1 AND i.accepted_at IS NULL AND i.expires_at > now()`, [code]);
  return rows[0];
}

/** Records an invitation mail to this address; returns how many were sent to it within the last `windowSeconds`. */
export async function countInvitationMail(db: Queryable, email: string, windowSeconds: number): Promise<number> {
  await db.query('DELETE FROM invitation_mails WHERE sent_at < now() - make_interval(secs => $1)', [windowSeconds]);
  const rows = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM invitation_mails WHERE email = lower($1) AND sent_at > now() - make_interval(secs => $2)",
    [email, windowSeconds],
  );
  return rows[0].count;
}

export async function recordInvitationMail(db: Queryable, email: string): Promise<void> {
  await db.query('INSERT INTO invitation_mails (email) VALUES (lower($1))', [email]);
}

export async function claimInvitation(db: Queryable, code: string, userId: string): Promise<InvitationRow | undefined> {
  const rows = await db.query<{ id: number; organization_id: number }>(
    `UPDATE invitations SET accepted_at = now(), accepted_by = $2
      WHERE code = $1 AND accepted_at IS NULL AND expires_at > now() RETURNING id, organization_id`,
    [code, userId],
  );
  if (rows.length === 0) return undefined;
  return findInvitation(db, rows[0].organization_id, rows[0].id);
}
