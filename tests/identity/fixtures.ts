import type { Database } from '../../server/db/database';
import { createUser, type UserRow } from '../../server/db/repositories/users-repository';

export const PASSWORD = 'Demo1234!';

/** Users and an organization of the tests' own, independent of what the demo seed writes. */
export async function createTestUser(db: Database, email: string, extra: { emailVerified?: boolean } = {}): Promise<UserRow> {
  return createUser(db, { email, password: PASSWORD, givenName: 'Test', familyName: email.split('@')[0], emailVerified: extra.emailVerified ?? true });
}

export async function createOrganization(db: Database, owner: UserRow, name: string, members: UserRow[] = []): Promise<number> {
  const [org] = await db.query<{ id: number }>('INSERT INTO organizations (name, created_by) VALUES ($1, $2) RETURNING id', [name, owner.id]);
  await db.query('INSERT INTO organization_members (organization_id, user_id, owner) VALUES ($1, $2, true)', [org.id, owner.id]);
  for (const member of members) {
    await db.query('INSERT INTO organization_members (organization_id, user_id) VALUES ($1, $2)', [org.id, member.id]);
  }
  return org.id;
}

/** One API call with a bearer token, answered as {status, body}. */
export async function callApi(baseUrl: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
