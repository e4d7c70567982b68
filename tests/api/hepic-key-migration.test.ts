import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../server/db/database';
import { findIngestKey } from '../../server/products/hepic/hepic-repository';
import { hashIngestKey } from '../../server/products/hepic/ingest-key';
import { createFreshPostgresDatabase, databaseTargets } from '../support/postgres';

// Migration 1800 on a database that holds Hepic keys the old way (plain text): it hashes them, keeps a hint, drops
// the plain columns, and the listener's look-up finds the instance and the token by the hash. On the embedded
// PGlite and, with TEST_DATABASE_URL, on PostgreSQL.

const MIGRATION = '1800-hepic-hashed-keys.sql';

describe.each(databaseTargets())('Hepic key migration ($kind)', (target) => {
  let db: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await db?.close();
    await drop?.();
    db = undefined;
    drop = undefined;
  });

  it('hashes the existing instance keys and scoped tokens and leaves no plain value in the database', async () => {
    if (target.kind === 'postgres') {
      const fresh = await createFreshPostgresDatabase(target.serverUrl);
      drop = fresh.drop;
      db = await openDatabase({ url: fresh.url, migrate: false });
    } else {
      db = await openDatabase({ migrate: false });
    }
    await migrate(db, { before: MIGRATION });
    // The rows as the code before 1800 wrote them (a non-ASCII key checks that SQL hashes the same bytes as Node).
    const key = 'hep_OLDplainInstanceKey0123';
    const token = 'hep_scopedTökenValue_4567xyz';
    await db.query("INSERT INTO users (email, given_name, family_name) VALUES ('old@example.com', 'Old', 'Keys')");
    const userId = (await db.query<{ id: string }>("SELECT id FROM users WHERE email = 'old@example.com'"))[0].id;
    const projectId = (
      await db.query<{ id: number }>("INSERT INTO projects (name, user_id) VALUES ('Voice', $1) RETURNING id", [userId])
    )[0].id;
    const integrationId = (
      await db.query<{ id: number }>("INSERT INTO integrations (project_id, product_slug, status) VALUES ($1, 'hepic', 'active') RETURNING id", [projectId])
    )[0].id;
    await db.query(
      `INSERT INTO hepic_instances (id, integration_id, project_id, cluster_id, price_id, rotation_days, database_name, api_key, subdomain_prefix)
       VALUES ('abc', $1, $2, 'shared-local', 'hepic-starter', 7, 'hepic_abc', $3, 'hepic-abc')`,
      [integrationId, projectId, key],
    );
    await db.query(
      "INSERT INTO hepic_tokens (instance_id, name, scope, token, expires_at) VALUES ('abc', 'Edge', 'read', $1, now() + interval '1 day')",
      [token],
    );

    expect(await migrate(db)).toContain(MIGRATION);

    const instances = await db.query<Record<string, unknown>>('SELECT * FROM hepic_instances');
    const tokens = await db.query<Record<string, unknown>>('SELECT * FROM hepic_tokens');
    const dump = JSON.stringify([instances, tokens]);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(token);
    expect(instances[0]).not.toHaveProperty('api_key');
    expect(tokens[0]).not.toHaveProperty('token');
    expect(instances[0]).toMatchObject({ api_key_hash: createHash('sha256').update(key).digest('hex'), api_key_hint: 'hep_OLDp…0123' });
    expect(tokens[0]).toMatchObject({ token_hash: hashIngestKey(token), token_hint: 'hep_scop…7xyz' });
    expect(await findIngestKey(db, hashIngestKey(key))).toEqual({ instance_id: 'abc', expires_at: null });
    expect((await findIngestKey(db, hashIngestKey(token)))?.instance_id).toBe('abc');
    expect(await findIngestKey(db, hashIngestKey('hep_unknown'))).toBeUndefined();
  }, 120_000);
});
