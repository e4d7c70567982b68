import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type PlatformConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { createMailer, type Mailer } from '../../server/adapters/mail/mailer';
import { createApiHandler, type ApiDependencies } from '../../server/api/api-handler';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAccessTokenVerifier } from '../../server/identity/verify-access-token';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import { seedDemoData } from '../../server/db/seed';
import { findUserByEmail, type UserRow } from '../../server/db/repositories/users-repository';
import { createFreshPostgresDatabase, type DatabaseTarget } from './postgres';
import { createClock, type Clock } from '../../server/clock';
import { createServiceRegistry } from '../../server/api/service-status';
import type { ServiceRegistry } from '../../server/route-kit/service-registry';
import { createJobQueue } from '../../server/jobs/job-queue';
import { createProductRegistry, PRODUCT_FACTORIES, type ProductRegistry } from '../../server/products/product-registry';
import type { ProductFactory } from '../../server/products/product-factory';
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
  /** The business clock the API reads (tests move it). */
  clock: Clock;
  products: ProductRegistry;
  services: ServiceRegistry;
  /** A token for a seeded user, by email, in personal mode or for an organization. */
  tokenFor(email: string, options?: MintOptions): Promise<string>;
  /** Every route the API serves, the products' included. */
  routes(): { method: string; path: string }[];
  close(): Promise<void>;
}

export interface StartApiOptions {
  seed?: boolean;
  mailer?: Mailer;
  /** Wraps the database the API handler sees (e.g. to make one statement fail); the harness keeps the real one. */
  wrapDatabase?: (db: Database) => Database;
  /**
   * Product back ends the API serves (default none): a list (e.g. a recording test product), or true for every
   * product of the installation (PRODUCT_FACTORIES). They are started (listeners, storage servers) with a temp data
   * folder; the job queue is not, so their jobs stay queued unless the test runs it.
   */
  products?: readonly ProductFactory[] | boolean;
  /** Parts the test owns instead (e.g. a started job queue or a clock it moves). */
  platform?: Pick<ApiDependencies, 'clock' | 'jobs'> & { products?: ProductRegistry };
  /** More environment settings of the platform (e.g. READ_CACHE), as an operator would give them. */
  env?: Record<string, string>;
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
  const factories = options.products === true ? PRODUCT_FACTORIES : options.products || [];
  const productsDir = factories.length > 0 ? await mkdtemp(path.join(tmpdir(), 'api-products-')) : undefined;
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test', DATA_DIR: productsDir ?? '/nonexistent', ...options.env });
  const { publicJwks } = await loadOrCreateSigningKeys(db);
  const verifyAccessToken = createAccessTokenVerifier({ issuer: config.issuer, audience: config.apiAudience, publicJwks });
  const clock = options.platform?.clock ?? createClock();
  const services = createServiceRegistry(db);
  const jobs = options.platform?.jobs ?? createJobQueue(db);
  const products = options.platform?.products ?? createProductRegistry({ db, config, clock, jobs, services, log: () => undefined }, factories);
  if (!options.platform?.products) await products.start();
  const handler = createApiHandler({
    db: options.wrapDatabase ? options.wrapDatabase(db) : db,
    config,
    verifyAccessToken,
    mailer: options.mailer ?? createMailer(db, { from: config.mailFrom }),
    clock,
    services,
    jobs,
    products,
  });
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
    clock,
    products,
    services,
    async tokenFor(email, mintOptions) {
      return mint(await user(email), mintOptions);
    },
    routes: () => handler.routes(),
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
      if (!options.platform?.products) await products.close();
      await db.close();
      await drop?.();
      if (productsDir) await rm(productsDir, { recursive: true, force: true });
    },
  };
}

/** An API with every product on the embedded database, signed in as Acme's owner, and Acme's two seeded projects. */
export async function startAcmeApi(): Promise<{ api: ApiHarness; owner: string; productionId: number; stagingId: number }> {
  const api = await startApi({ kind: 'pglite' }, { products: true });
  const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
  const stagingId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
  const owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
  return { api, owner, productionId, stagingId };
}
