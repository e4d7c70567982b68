import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createMailer } from './adapters/mail/mailer';
import { createApiHandler } from './api/api-handler';
import { DEFAULT_SOCIAL_CONNECTION, type PlatformConfig } from './config';
import { openDatabase, type Database } from './db/database';
import { presentDemoAccounts, seedDemoData } from './db/seed';
import { provisionDemoProducts } from './products/demo-products';
import { seedDemoStates } from './products/demo-states';
import { renderOutboxPage } from './dev/outbox-page';
import { createIdentityServer } from './identity/identity-server';
import { loadOrCreateSigningKeys } from './identity/signing-keys';
import { createSecretBox } from './identity/secret-box';
import { createAccessTokenVerifier } from './identity/verify-access-token';
import { createStaticFileHandler, setSecurityHeaders } from './static-files';
import { createClock, type Clock } from './clock';
import { createPaymentProvider } from './adapters/payments/create-payment-provider';
import { runInvoicing, startBillingLedger } from './billing/billing-ledger';
import { scheduleUnfinishedBillingCleanup, unfinishedBillingAccountDays } from './billing/unfinished-billing-accounts';
import { handleClockPage } from './dev/clock-page';
import { createJobQueue, type JobQueue } from './jobs/job-queue';
import { createServiceRegistry } from './api/service-status';
import { createProductRegistry, PRODUCT_FACTORIES, type ProductRegistry } from './products/product-registry';
import type { ProductFactory } from './products/product-factory';
import { startSubscriptionLifecycle, type SubscriptionLifecycle } from './api/subscription-lifecycle';
import { createStorageSwitch, handleDevClock } from './dev/dev-controls';
import { admitDevPageRequest } from './dev/dev-pages-key';
import { describeErrorForLog } from './safe-error-log';
import { startSocialStandIn, type SocialStandIn } from './identity/social-stand-in/stand-in-provider';
import { socialRedirectUri } from './identity/social-sign-in';
import { startInstanceEvents, type InstanceEvents } from './coordination/instance-events';

export interface StartPlatformOptions {
  /** Write the demo data (idempotent). Default: the config's seedDemoData (SEED_DEMO_DATA). */
  seed?: boolean;
  /**
   * Also write the demo states the main demo data cannot show (server/products/demo-states.ts: no card, a Hepic
   * user who is not an admin, a cluster in creating). `npm start` turns it on with the demo data; tests do not.
   */
  demoStates?: boolean;
  /** No request error logging. Default false. */
  quiet?: boolean;
  /** Product back ends added to PRODUCT_FACTORIES (tests plug in a recording product). */
  extraProducts?: readonly ProductFactory[];
  /** How often the subscription lifecycle job runs. Default 5 s. */
  lifecycleIntervalMs?: number;
}

export interface RunningPlatform {
  url: string;
  port: number;
  config: PlatformConfig;
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  products: ProductRegistry;
  /** The subscription lifecycle (trial → active/suspended, cancellations); tick() runs a pass now. */
  lifecycle: SubscriptionLifecycle;
  /** The local social sign-in stand-in's issuer, when the platform started it (no SOCIAL_OIDC_ISSUER). */
  socialStandInUrl?: string;
  close(): Promise<void>;
}

/**
 * The whole platform on one origin: identity server under /realms/, API under /api/, developer pages under /dev/,
 * the built console everywhere else. One origin means no CORS and one cookie site for keycloak-js.
 */
export async function startPlatform(config: PlatformConfig, options: StartPlatformOptions = {}): Promise<RunningPlatform> {
  // Listen first: with port 0 the real port is only known now, and the issuer, audience and public URL that go into
  // every token must name it.
  const server = createServer();
  // Until the database is open and seeded, answer at once instead of leaving early requests hanging unanswered.
  const starting = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1', 'Cache-Control': 'no-store' });
    res.end('The platform is starting, try again in a moment.');
  };
  server.on('request', starting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let effective = withActualPort(config, port);

  let db: Database | undefined;
  let events: InstanceEvents | undefined;
  let standIn: SocialStandIn | undefined;
  try {
    if (!effective.socialOidc && effective.socialStandIn?.enabled) {
      // The local stand-in provider, started and stopped with the platform; the identity server signs in through it.
      standIn = await startSocialStandIn({
        host: '127.0.0.1',
        port: effective.socialStandIn.port,
        redirectUri: socialRedirectUri(effective.issuer),
        connection: DEFAULT_SOCIAL_CONNECTION,
      });
      effective = { ...effective, socialOidc: standIn.settings };
    }
    db = await openDatabase(effective.databaseUrl ? { url: effective.databaseUrl } : { dataDir: effective.dataDir });
    const seeded = (options.seed ?? effective.seedDemoData) ? (await seedDemoData(db)).seeded : false;
    await refuseDemoAccountsInProduction(db, effective);
    const secretBox = effective.secretsEncryptionKey ? createSecretBox(effective.secretsEncryptionKey) : undefined;
    const signingKeys = await loadOrCreateSigningKeys(db, secretBox);
    const verifyAccessToken = createAccessTokenVerifier({
      issuer: effective.issuer,
      audience: effective.apiAudience,
      publicJwks: signingKeys.publicJwks,
    });
    const mailer = createMailer(db, { smtpUrl: effective.smtpUrl, from: effective.mailFrom });
    const identity = await createIdentityServer({ db, config: effective, mailer, signingKeys, quiet: options.quiet });
    const log = (message: string) => {
      if (!options.quiet) console.log(message);
    };
    const clock = createClock();
    const services = createServiceRegistry(db);
    const jobs = createJobQueue(db, { log });
    // Several instances on one PostgreSQL tell each other what made their caches stale (LISTEN/NOTIFY).
    events = await startInstanceEvents({ databaseUrl: effective.databaseUrl, db, log });
    const products = createProductRegistry({ db, config: effective, clock, jobs, services, log, events }, [...PRODUCT_FACTORIES, ...(options.extraProducts ?? [])]);
    await products.start();
    if (seeded) await provisionDemoProducts(db, products, log);
    if (options.demoStates && (options.seed ?? effective.seedDemoData)) await seedDemoStates(db, products, jobs, log);
    const lifecycle = await startSubscriptionLifecycle({ db, clock, products, jobs, log }, { intervalMs: options.lifecycleIntervalMs });
    registerPlatformChecks(services, { port, host: effective.host, realmPath: identity.realmPath, lifecycle });
    const storageSwitch = effective.devPages
      ? createStorageSwitch(() => (products.get('qryn') as { storageServer?: () => { pid: number } | undefined } | undefined)?.storageServer?.()?.pid)
      : undefined;
    jobs.start();
    const api = createApiHandler({ db, config: effective, verifyAccessToken, mailer, clock, jobs, services, products });
    const ledger = { db, clock, jobs, payments: createPaymentProvider(db, effective), publicUrl: effective.publicUrl, apiBasePath: effective.apiBasePath };
    await startBillingLedger(ledger);
    await scheduleUnfinishedBillingCleanup({ db, clock, jobs, payments: ledger.payments, log, days: unfinishedBillingAccountDays(effective) });
    const serveStatic = createStaticFileHandler(effective.staticDir, { hostedPayments: !!effective.stripePublishableKey });
    const database = db;
    const hsts = effective.publicUrl.startsWith('https:');

    const route = async (req: IncomingMessage, res: ServerResponse) => {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      setSecurityHeaders(res);
      // Browsers that once reached the https address never try plain http again.
      if (hsts) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      if (pathname === identity.realmPath || pathname.startsWith(`${identity.realmPath}/`)) return identity.handle(req, res);
      if (pathname === effective.apiBasePath || pathname.startsWith(`${effective.apiBasePath}/`)) return api(req, res);
      if (pathname === '/healthz') return health(database, res);
      if (effective.devPages && (pathname === '/dev/outbox' || pathname === '/dev/clock' || (pathname === '/dev/storage' && storageSwitch))) {
        if (!admitDevPageRequest(req, res, effective.devPagesKey)) return;
      }
      if (pathname === '/dev/outbox' && effective.devPages) return renderOutboxPage(database, res, identity.realmPath);
      if (pathname === '/dev/clock' && effective.devPages) {
        // One business clock, two faces: JSON for scripts and tests ({advance_days}), a form page for people. Either
        // way, moving time runs what depends on it at once: the subscription lifecycle and invoicing.
        const afterAdvance = async () => {
          await lifecycle.tick();
          await runInvoicing(ledger);
        };
        if (/json/i.test(String(req.headers['content-type'] ?? '')) || /json/i.test(String(req.headers.accept ?? ''))) {
          return handleDevClock(req, res, clock, lifecycle, () => runInvoicing(ledger));
        }
        return handleClockPage(req, res, {
          clock,
          realmPath: identity.realmPath,
          afterAdvance,
          endTrial: async (name) => (await database.query('UPDATE organizations SET trial_ends_at = $2 WHERE name = $1 RETURNING id', [name, clock.now()])).length > 0,
        });
      }
      if (pathname === '/dev/storage' && storageSwitch) return storageSwitch.handle(req, res);
      for (const product of products.all()) {
        const prefix = product.httpPrefix;
        if (prefix && product.handleHttp && (pathname === prefix || pathname.startsWith(`${prefix}/`))) return product.handleHttp(req, res);
      }
      return serveStatic(req, res);
    };
    // WebSocket upgrades (qryn's live tail) go to the product whose prefix the path is under; others are refused.
    const upgraded = new Set<Duplex>();
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      socket.on('error', () => undefined);
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      for (const product of products.all()) {
        const prefix = product.httpPrefix;
        if (prefix && product.handleUpgrade && pathname.startsWith(`${prefix}/`) && product.handleUpgrade(req, socket, head)) return;
      }
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    server.off('request', starting);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      route(req, res).catch((error: unknown) => {
        // The path only: a query string may carry codes or tokens.
        if (!options.quiet) console.error('[platform]', req.method, (req.url ?? '').split('?')[0], describeErrorForLog(error));
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('Internal server error');
        } else res.destroy();
      });
    });

    return {
      url: effective.publicUrl,
      port,
      config: effective,
      db,
      clock,
      jobs,
      products,
      lifecycle,
      socialStandInUrl: standIn?.issuer,
      async close() {
        identity.close();
        // Upgraded sockets are not HTTP connections: the listener would wait for them, so they end first.
        for (const product of products.all()) await product.closeUpgrades?.();
        for (const socket of upgraded) socket.destroy();
        await closeServer(server);
        await standIn?.close();
        // Jobs first (they may be talking to a product's servers), then the products stop what they started.
        lifecycle.close();
        storageSwitch?.resume();
        await jobs.close();
        await products.close();
        await events?.close();
        await database.close();
      },
    };
  } catch (error) {
    await closeServer(server).catch(() => undefined);
    await standIn?.close().catch(() => undefined);
    await events?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    throw error;
  }
}

/** The config with the port the server really listens on, where the public URL was derived from the port. */
export function withActualPort(config: PlatformConfig, port: number): PlatformConfig {
  if (config.port === port) return config;
  const derived = `http://${config.host}:${config.port}`;
  if (config.publicUrl !== derived) return { ...config, port };
  const publicUrl = `http://${config.host}:${port}`;
  return {
    ...config,
    port,
    publicUrl,
    issuer: `${publicUrl}/realms/${config.realm}`,
    apiAudience: config.apiAudience === `${derived}/api` ? `${publicUrl}/api` : config.apiAudience,
  };
}

/**
 * The demo accounts share one published password: a production start with them present refuses, unless the demo
 * data was asked for by name (SEED_DEMO_DATA=true), which is said loudly.
 */
async function refuseDemoAccountsInProduction(db: Database, config: PlatformConfig): Promise<void> {
  if (!config.production) return;
  const present = await presentDemoAccounts(db);
  if (present.length === 0) return;
  const list = present.join(', ');
  if (config.seedDemoData) {
    console.warn(`\n*** WARNING: NODE_ENV=production with the demo accounts (${list}) and their published password. ***\n*** Anyone can sign in as them. Unset SEED_DEMO_DATA and delete them before real use. ***\n`);
    return;
  }
  throw new Error(
    `Refusing to start in production: the demo accounts ${list} exist and sign in with a published password. ` +
      'Delete them (or reset the database with SEED_DEMO_DATA=false), or set SEED_DEMO_DATA=true to run a demo on purpose.',
  );
}

const PLATFORM_PRODUCT = { slug: 'platform', name: 'Platform' };

/**
 * The platform's own parts on the system status page, beside API and Database (service-status.ts): the identity
 * provider answers its discovery document, and the job worker ran the lifecycle pass recently.
 */
function registerPlatformChecks(
  services: ReturnType<typeof createServiceRegistry>,
  parts: { port: number; host: string; realmPath: string; lifecycle: SubscriptionLifecycle },
) {
  const host = parts.host === '0.0.0.0' || parts.host === '::' ? '127.0.0.1' : parts.host.includes(':') ? `[${parts.host}]` : parts.host;
  const discovery = `http://${host}:${parts.port}${parts.realmPath}/.well-known/openid-configuration`;
  services.register(PLATFORM_PRODUCT, 'Identity', async () => {
    const response = await fetch(discovery, { signal: AbortSignal.timeout(1_500) });
    await response.body?.cancel();
    return response.ok;
  });
  services.register(PLATFORM_PRODUCT, 'Job worker', async () => parts.lifecycle.healthy());
}

async function health(db: Database, res: ServerResponse) {
  try {
    await db.query('SELECT 1');
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ status: 'ok' }));
  } catch {
    res.writeHead(503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ status: 'unavailable' }));
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections (a browser, fetch's pool) would hold close() open for minutes.
    server.closeAllConnections();
  });
}
