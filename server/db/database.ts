import { chmod, readdir, readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// One SQL dialect (PostgreSQL) for both engines: PGlite embedded in the process by default, a PostgreSQL server
// when DATABASE_URL is set. Callers see only this interface, so repositories never know which one runs.
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: all of its writes land, or none do. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  dataDir?: string;
  url?: string;
  migrate?: boolean;
}

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const db = options.url ? await openPostgres(options.url) : await openPglite(options.dataDir);
  if (options.migrate !== false) await migrate(db);
  return db;
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pgdata');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // The data folder holds the database (accounts, sessions, secrets): only the platform's user may enter it.
    await chmod(dataDir, 0o700);
  }
  const pg = await PGlite.create(dir);
  if (dir) await keepOwnerOnly(dir);
  const asQueryable = (q: { query: typeof pg.query }): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      const result = await q.query<T>(sql, params as unknown[] | undefined);
      return result.rows;
    },
  });
  return {
    kind: 'pglite',
    ...asQueryable(pg),
    transaction: (fn) => pg.transaction((tx) => fn(asQueryable(tx))),
    close: async () => {
      await pg.close();
      if (dir) await keepOwnerOnly(dir);
    },
  };
}

/**
 * PGlite's file-system layer writes files with mode 666 whatever the umask; they sit in folders of mode 700 so
 * nobody else can reach them, and at every open and close the files are set to 600 and the folders to 700.
 */
export async function keepOwnerOnly(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await keepOwnerOnly(full);
    else if (entry.isFile()) await chmod(full, 0o600).catch(() => undefined);
  }
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg');
  // int8 and numeric come back as strings by default; ids here are int4, counts are cast in SQL where needed.
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle pooled connection the server ends (a restart, a failover, an administrator's terminate) is reported on
  // the pool; without a listener that event would end the whole process. The pool drops that connection and opens
  // a new one for the next query, so a warning is all it needs.
  pool.on('error', (error) => {
    console.warn(`[database] an idle PostgreSQL connection was closed by the server: ${error.message}`);
  });
  const named = preparedStatementNames();
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const result = await pool.query(named(sql, params));
      return result.rows as T[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await fn({
          async query<T>(sql: string, params?: readonly unknown[]) {
            const result = await client.query(named(sql, params));
            return result.rows as T[];
          },
        });
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Named (prepared) statements for PostgreSQL: a connection parses and plans a named statement once and then only
 * binds and executes it, which saves the server a parse and a plan per call. Only statements with parameters are
 * named (they already use the extended protocol, so they are single statements); the SQL texts of this code base are
 * fixed strings, and at most MAX_NAMED distinct texts are named (anything beyond runs unnamed, as before), so a
 * statement built with a varying text cannot grow every connection's statement cache without bound.
 */
function preparedStatementNames(): (sql: string, params?: readonly unknown[]) => { text: string; values?: unknown[]; name?: string } {
  const MAX_NAMED = 2_000;
  const names = new Map<string, string>();
  return (sql, params) => {
    const values = params as unknown[] | undefined;
    if (!values || values.length === 0) return { text: sql, values };
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED) {
      name = `s${names.size + 1}`;
      names.set(sql, name);
    }
    return name === undefined ? { text: sql, values } : { text: sql, values, name };
  };
}

/**
 * Applies server/db/migrations/*.sql in file-name order, each once, each in its own transaction. An advisory lock
 * keeps two instances starting against one PostgreSQL from running the same migration twice.
 */
export async function migrate(db: Database, options: { before?: string } = {}): Promise<string[]> {
  // `before` stops at a migration (tests of a migration set up the rows it converts, then run it).
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql') && (options.before === undefined || f < options.before)).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7311)');
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(migrationsDir, file), 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}

// Migrations are plain statements separated by semicolons at line ends; no functions with bodies are used.
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
