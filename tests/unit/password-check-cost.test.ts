import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../../server/db/database';

// Issue 25: an unknown email and a wrong password must answer alike, timing included. Every sign-in check costs
// exactly one scrypt, whichever of the two it is, the first unknown email of a process included.
const scryptCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const scrypt = (...args: unknown[]) => {
    scryptCalls.count += 1;
    return (actual.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

const { authenticateUser, hashPassword } = await import('../../server/db/repositories/users-repository');

/** A database holding one password account (and a social one without a password). */
function fakeDb(rows: Record<string, { password_hash: string | null }>): Queryable {
  return {
    query: async (_sql: string, params?: unknown[]) => {
      const row = rows[String(params?.[0]).toLowerCase()];
      return (row ? [{ id: 'u1', email: params?.[0], given_name: 'A', family_name: 'B', connection: 'x', email_verified: true, created_at: new Date(), ...row }] : []) as never;
    },
  } as Queryable;
}

describe('the cost of a sign-in check', () => {
  afterEach(() => {
    scryptCalls.count = 0;
  });

  it('is one scrypt for an unknown email (the first one too), a wrong password and a password-less account', async () => {
    const db = fakeDb({ 'known@example.com': { password_hash: await hashPassword('Right-pass1!') }, 'social@example.com': { password_hash: null } });
    scryptCalls.count = 0;
    expect(await authenticateUser(db, 'nobody@example.com', 'Guess-1!')).toBeUndefined();
    expect(scryptCalls.count).toBe(1);
    scryptCalls.count = 0;
    expect(await authenticateUser(db, 'known@example.com', 'Guess-1!')).toBeUndefined();
    expect(scryptCalls.count).toBe(1);
    scryptCalls.count = 0;
    expect(await authenticateUser(db, 'social@example.com', 'Guess-1!')).toBeUndefined();
    expect(scryptCalls.count).toBe(1);
    scryptCalls.count = 0;
    expect(await authenticateUser(db, 'known@example.com', 'Right-pass1!')).toMatchObject({ id: 'u1' });
    expect(scryptCalls.count).toBe(1);
  });
});
