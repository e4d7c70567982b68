import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type PlatformConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { createMailer, type Mailer } from '../../server/adapters/mail/mailer';
import { createApiHandler, type ApiDependencies } from '../../server/api/api-handler';
import { createAccessTokenVerifier } from '../../server/identity/verify-access-token';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import { seedDemoData } from '../../server/db/seed';
import { findUserByEmail, type UserRow } from '../../server/db/repositories/users-repository';
import { createFreshPostgresDatabase, type DatabaseTarget } from './postgres';
import { createTokenMinter, type MintOptions, type TokenMinter } from './mint-token';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of JSON. */
  form?: Record<string, string>;
  /** Sent as-is (to test malformed JSON). */
  rawBody?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

/** The API alone (no identity pages, no console files) on a free port, over a fresh seeded database. */
export interface ApiHarness {
  baseUrl: string;
  config: PlatformConfig;
  db: Database;
  mint: TokenMinter;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  user(email: string): Promise<UserRow>;
  /** A token for a seeded user, by email, in personal mode or for an organization. */
  tokenFor(email: string, options?: MintOptions): Promise<string>;
  close(): Promise<void>;
}

export interface StartApiOptions {
  seed?: boolean;
  mailer?: Mailer;
  /** Wraps the database the API handler sees (e.g. to make one statement fail); the harness keeps the real one. */
  wrapDatabase?: (db: Database) => Database;
  /** The business clock, job queue and product back ends the API handler gets (defaults: wall clock, idle queue, none). */
  platform?: Pick<ApiDependencies, 'clock' | 'jobs' | 'products'>;
}

export async function startApi(target: DatabaseTarget, options: StartApiOptions = {}): Promise<ApiHarness> {
  let drop: (() => Promise<void>) | undefined;
  let db: Database;
  if (target.kind === 'postgres') {
    const fresh = await createFreshPostgresDatabase(target.serverUrl);
    drop = fresh.drop;
    db = await openDatabase({ url: fresh.url });
  } else {
    // In-memory PGlite: a fresh database per test file without touching the disk.
    db = await openDatabase({});
  }
  if (options.seed !== false) await seedDemoData(db);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test', DATA_DIR: '/nonexistent' });
  const { publicJwks } = await loadOrCreateSigningKeys(db);
  const verifyAccessToken = createAccessTokenVerifier({ issuer: config.issuer, audience: config.apiAudience, publicJwks });
  const handler = createApiHandler({ db: options.wrapDatabase ? options.wrapDatabase(db) : db, config, verifyAccessToken, mailer: options.mailer ?? createMailer(db, { from: config.mailFrom }), ...options.platform });
  server.on('request', (req, res) => void handler(req, res));
  const mint = await createTokenMinter(db, config);
  const baseUrl = `http://127.0.0.1:${port}`;

  const user = async (email: string) => {
    const found = await findUserByEmail(db, email);
    if (!found) throw new Error(`No user ${email} in the test database`);
    return found;
  };

  return {
    baseUrl,
    config,
    db,
    mint,
    user,
    async tokenFor(email, mintOptions) {
      return mint(await user(email), mintOptions);
    },
    async request(method, path, opts = {}) {
      const url = new URL(`/api/${path.replace(/^\//, '')}`, baseUrl);
      for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined;
      if (opts.rawBody !== undefined) {
        body = opts.rawBody;
        headers['content-type'] ??= 'application/json';
      } else if (opts.form) {
        body = new URLSearchParams(opts.form).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(url, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON: the assertion will show the raw text.
      }
      return { status: response.status, body: parsed as any, headers: response.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      await drop?.();
    },
  };
}
