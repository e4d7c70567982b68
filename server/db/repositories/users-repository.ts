import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Queryable } from '../database';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const PASSWORD_CONNECTION = 'Username-Password-Authentication';

export interface UserRow {
  id: string;
  email: string;
  given_name: string;
  family_name: string;
  connection: string;
  email_verified: boolean;
  created_at: Date;
}

const columns = 'id, email, given_name, family_name, connection, email_verified, created_at';

// scrypt with a per-user salt; the stored form carries its own parameters so they can be raised later.
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPasswordHash(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(expected, actual);
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${columns} FROM users WHERE id = $1`, [id]);
  return rows[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${columns} FROM users WHERE lower(email) = lower($1)`, [email]);
  return rows[0];
}

export interface NewUser {
  email: string;
  password?: string;
  givenName: string;
  familyName: string;
  connection?: string;
  emailVerified?: boolean;
}

export async function createUser(db: Queryable, user: NewUser): Promise<UserRow> {
  const passwordHash = user.password ? await hashPassword(user.password) : null;
  const rows = await db.query<UserRow>(
    `INSERT INTO users (email, password_hash, given_name, family_name, connection, email_verified)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
    [
      user.email.trim(),
      passwordHash,
      user.givenName,
      user.familyName,
      user.connection ?? PASSWORD_CONNECTION,
      user.emailVerified ?? false,
    ],
  );
  return rows[0];
}

/** The user if the email and password match one; undefined otherwise (no hint which part was wrong). */
export async function authenticateUser(db: Queryable, email: string, password: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow & { password_hash: string | null }>(
    `SELECT ${columns}, password_hash FROM users WHERE lower(email) = lower($1)`,
    [email],
  );
  const row = rows[0];
  // Unknown accounts and accounts without a password cost one scrypt too, so the answer's timing does not tell
  // which emails have an account.
  if (!row?.password_hash) {
    await verifyPasswordHash(password, await timingDummyHash());
    return undefined;
  }
  if (!(await verifyPasswordHash(password, row.password_hash))) return undefined;
  const { password_hash: _ignored, ...user } = row;
  return user;
}

// Made when the module loads, not at the first unknown email: made then, it cost that answer a second scrypt
// (the hash, then its check), so the first probe of an unknown email took about twice as long as a wrong password.
const dummyHash: Promise<string> = hashPassword(randomBytes(16).toString('base64'));
function timingDummyHash(): Promise<string> {
  return dummyHash;
}

export async function updateUserPassword(db: Queryable, id: string, password: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [id, await hashPassword(password)]);
}

export async function updateUserProfile(db: Queryable, id: string, givenName: string, familyName: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `UPDATE users SET given_name = $2, family_name = $3, updated_at = now() WHERE id = $1 RETURNING ${columns}`,
    [id, givenName, familyName],
  );
  return rows[0];
}

export async function deleteUser(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM users WHERE id = $1', [id]);
}

export async function markEmailVerified(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE users SET email_verified = true, updated_at = now() WHERE id = $1', [id]);
}
