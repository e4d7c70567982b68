import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { authenticateUser, createUser, findUserByEmail } from '../../server/db/repositories/users-repository';

describe('embedded database', () => {
  let dir: string;
  let db: Database;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'db-'));
    db = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('rolls a failed transaction back whole', async () => {
    await expect(
      db.transaction(async (tx) => {
        await createUser(tx, { email: 'rollback@example.com', givenName: 'R', familyName: 'B', password: 'Demo1234!' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await findUserByEmail(db, 'rollback@example.com')).toBeUndefined();
  });

  it('authenticates by email in any case and refuses a wrong password', async () => {
    await createUser(db, { email: 'Case@Example.com', givenName: 'C', familyName: 'E', password: 'Demo1234!' });
    expect((await authenticateUser(db, 'case@example.com', 'Demo1234!'))?.email).toBe('Case@Example.com');
    expect(await authenticateUser(db, 'case@example.com', 'wrong')).toBeUndefined();
  });

  it('keeps data across a reopen', async () => {
    await db.close();
    db = await openDatabase({ dataDir: dir });
    expect(await findUserByEmail(db, 'case@example.com')).toBeDefined();
  });
});

// A PostgreSQL server may end an idle pooled connection (a restart, a failover, pg_terminate_backend). The pool
// reports it as an 'error' event; the platform must log it and go on, not die of an unhandled error event.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('PostgreSQL pool', () => {
  it('survives the server ending its idle connections and answers the next query', async () => {
    const { createFreshPostgresDatabase } = await import('../support/postgres');
    const fresh = await createFreshPostgresDatabase(process.env.TEST_DATABASE_URL!);
    const db = await openDatabase({ url: fresh.url, migrate: false });
    try {
      await db.query('SELECT 1');
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const ended = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [new URL(fresh.url).pathname.slice(1)]);
        expect(ended.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
      await fresh.drop();
    }
  });
});
