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
