import path from 'node:path';

// Every setting of the platform comes from the environment, with defaults that make a fresh clone run locally.
export interface PlatformConfig {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  realm: string;
  clientId: string;
  apiAudience: string;
  issuer: string;
  apiBasePath: string;
  accessTokenTtlSeconds: number;
  stripeSecretKey: string | undefined;
  stripePublishableKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  devPages: boolean;
  staticDir: string;
  /**
   * READ_CACHE: how long (ms) the API may reuse an identical read while nothing is written, embedded database only
   * (server/api/read-cache.ts). `on` (default) = 1000, `off` or 0 turns it off, a number sets the time.
   */
  readCacheMs?: number;
}

export const DEFAULT_READ_CACHE_MS = 1_000;

export function parseReadCache(value: string | undefined): number {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'on' || text === 'true') return DEFAULT_READ_CACHE_MS;
  if (text === 'off' || text === 'false') return 0;
  if (/^\d+$/.test(text)) return Number(text);
  throw new Error(`READ_CACHE must be on, off or a number of milliseconds (got '${value}')`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/$/, '');
  const realm = env.REALM ?? 'observability';
  return {
    port,
    host,
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    realm,
    clientId: env.CLIENT_ID ?? 'console',
    apiAudience: env.API_AUDIENCE ?? `${publicUrl}/api`,
    issuer: `${publicUrl}/realms/${realm}`,
    apiBasePath: '/api',
    accessTokenTtlSeconds: Number(env.ACCESS_TOKEN_TTL ?? 300),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Observability Console <no-reply@localhost>',
    devPages: env.DEV_PAGES ? env.DEV_PAGES === 'true' : env.NODE_ENV !== 'production',
    staticDir: path.resolve(env.STATIC_DIR ?? 'dist'),
    readCacheMs: parseReadCache(env.READ_CACHE),
  };
}
