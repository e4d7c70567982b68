import { createHash, randomBytes } from 'node:crypto';
import type { PlatformConfig } from '../config';
import type { Queryable } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';

/** How long a verification link works: long enough for a mail that sits unread over a weekend. */
export const VERIFICATION_TOKEN_TTL_HOURS = 72;

export interface EmailVerificationDeps {
  db: Queryable;
  mailer: Mailer;
  config: PlatformConfig;
}

// Only the hash is stored: the database alone cannot be turned into working verification links.
function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function verificationLink(config: PlatformConfig, token: string): string {
  return `${config.publicUrl}/realms/${config.realm}/verify-email?token=${encodeURIComponent(token)}`;
}

/** Creates a single-use, expiring token for the user and mails the link (to the outbox, and SMTP when set). */
export async function sendVerificationEmail(
  deps: EmailVerificationDeps,
  user: { id: string; email: string; given_name: string },
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await deps.db.query(
    `INSERT INTO email_verification_tokens (token_hash, user_id, expires_at)
     VALUES ($1, $2, now() + make_interval(hours => $3))`,
    [hashToken(token), user.id, VERIFICATION_TOKEN_TTL_HOURS],
  );
  const link = verificationLink(deps.config, token);
  const greeting = user.given_name ? `Hello ${user.given_name},` : 'Hello,';
  await deps.mailer.send({
    to: user.email,
    subject: 'Verify your email address',
    text: `${greeting}\n\nPlease confirm your email address by opening this link:\n${link}\n\nThe link works once and expires in ${VERIFICATION_TOKEN_TTL_HOURS} hours. If you did not create an account, ignore this mail.\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>Please confirm your email address:</p><p><a href="${escapeHtml(link)}">Verify email address</a></p><p>The link works once and expires in ${VERIFICATION_TOKEN_TTL_HOURS} hours. If you did not create an account, ignore this mail.</p>`,
  });
}

export type VerifyEmailResult = { status: 'verified'; userId: string } | { status: 'invalid' | 'expired' | 'used' };

/**
 * Consumes a verification token and marks its user verified. The UPDATE ... WHERE used_at IS NULL makes the
 * consumption atomic, so two clicks on one link (or two instances) verify once and the second sees 'used'.
 */
export async function consumeVerificationToken(db: Queryable, token: string): Promise<VerifyEmailResult> {
  if (!token) return { status: 'invalid' };
  const hash = hashToken(token);
  const rows = await db.query<{ user_id: string; expired: boolean; used: boolean }>(
    `SELECT user_id, expires_at < now() AS expired, used_at IS NOT NULL AS used
       FROM email_verification_tokens WHERE token_hash = $1`,
    [hash],
  );
  const row = rows[0];
  if (!row) return { status: 'invalid' };
  if (row.used) return { status: 'used' };
  if (row.expired) return { status: 'expired' };
  const claimed = await db.query<{ user_id: string }>(
    'UPDATE email_verification_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL RETURNING user_id',
    [hash],
  );
  if (claimed.length === 0) return { status: 'used' };
  await db.query('UPDATE users SET email_verified = true, updated_at = now() WHERE id = $1', [row.user_id]);
  return { status: 'verified', userId: row.user_id };
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
