import { randomBytes } from 'node:crypto';

// API tests run against the embedded PGlite always, and also against a PostgreSQL server when TEST_DATABASE_URL
// names one. A URL that is set but unreachable fails the run: a silently skipped PostgreSQL run would look green.

export type DatabaseTarget = { kind: 'pglite' } | { kind: 'postgres'; serverUrl: string };

let announced = false;

export function databaseTargets(): DatabaseTarget[] {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    if (!announced) {
      announced = true;
      console.log('[tests] TEST_DATABASE_URL is not set: the PostgreSQL run was not requested (embedded PGlite only).');
    }
    return [{ kind: 'pglite' }];
  }
  return [{ kind: 'pglite' }, { kind: 'postgres', serverUrl }];
}

/** A new, empty database on the server; drop() removes it (also when connections are still open). */
export async function createFreshPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `api_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `TEST_DATABASE_URL is set (${redact(serverUrl)}) but the PostgreSQL server cannot be reached: ${error instanceof Error ? error.message : error}`,
    );
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // FORCE ends the test's own leftover connections; it is refused (42501) while a server process of another
        // role (an autovacuum worker) is in the database, which passes in a moment: try again a few times, then
        // leave the database to the throwaway server rather than fail a test that passed.
        for (let attempt = 1; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            return;
          } catch (error) {
            if ((error as { code?: string }).code !== '42501') throw error;
            if (attempt >= 10) {
              console.warn(`[tests] could not drop ${name} yet (a server process is still in it); the throwaway server keeps it.`);
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
