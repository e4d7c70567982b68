import path from 'node:path';
import type { FailurePolicy } from './db/repositories/sign-in-failures-repository';
import { createAddressRules, parseAllowedNetworks } from './net/address-rules';
import { devPagesKeyFrom } from './dev/dev-pages-key';

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
  /** The key the developer pages ask for (DEV_PAGES_KEY, else random per start; printed by npm start). */
  devPagesKey: string;
  staticDir: string;
  /** Grafana's HTTP API and a service-account token: both set = HTTP mode, else local mode (docs/grafana.md). */
  grafanaUrl?: string;
  grafanaToken?: string;
  /** Where people open Grafana, when it differs from GRAFANA_URL (the platform may reach Grafana privately). */
  grafanaPublicUrl?: string;
  /** NODE_ENV=production. */
  production: boolean;
  /** Write the demo accounts and data at start (SEED_DEMO_DATA; on unless NODE_ENV=production). */
  seedDemoData: boolean;
  /** A password change needs a sign-in at most this many seconds old (REAUTHENTICATION_MAX_AGE, default 300). */
  reauthenticationMaxAgeSeconds: number;
  /** Brute-force protection of the login form (docs/security.md). */
  signInProtection: { account: FailurePolicy; address: FailurePolicy };
  /** Hepic's HEP endpoint (UDP and TCP): HEP_PORT, default 9060 (HEP's usual port); 0 lets the system choose (tests). */
  hepPort?: number;
  /**
   * READ_CACHE: how long (ms) the API may reuse an identical read while nothing is written, embedded database only
   * (server/api/read-cache.ts). `on` (default) = 1000, `off` or 0 turns it off, a number sets the time.
   */
  readCacheMs?: number;
  /** SECRETS_ENCRYPTION_KEY: when set, signing and cookie keys are stored encrypted with it (docs/security.md). */
  secretsEncryptionKey?: string;
  /** PROJECT_LIMIT_PER_ACCOUNT: projects one account (an organization, or a personal account) may hold; default 100. */
  projectLimitPerAccount?: number;
  /** Sign-in through an external OpenID Connect provider (SOCIAL_OIDC_*, docs/security.md); absent = no such button. */
  socialOidc?: SocialOidcSettings;
  /**
   * The local stand-in provider (server/identity/social-stand-in/): started by the platform when no SOCIAL_OIDC_ISSUER
   * is given (SOCIAL_STAND_IN, default on outside production on a loopback address), on SOCIAL_STAND_IN_PORT.
   */
  socialStandIn?: { enabled: boolean; port: number };
  /** UNFINISHED_BILLING_ACCOUNT_DAYS: days an abandoned create-organization billing account is kept; default 7. */
  unfinishedBillingAccountDays?: number;
  /**
   * OUTBOUND_ALLOWED_NETWORKS: networks (CIDR, comma-separated) that user-given addresses (an external ClickHouse
   * cluster, Loggen's target) may reach although they are not public, e.g. 192.168.0.0/16 for a LAN installation.
   * Empty (default): public addresses only (server/net/address-rules.ts, docs/security.md).
   */
  outboundAllowedNetworks?: string[];
  /** EXTERNAL_CONNECT_ATTEMPTS: external-cluster connection attempts one account may make per 10 minutes; default 10. */
  externalConnectAttempts?: number;
  /** CLICKHOUSE_CLUSTERS_PER_ORGANIZATION / _TRIAL: managed clusters one account may run (docs/security.md). */
  clickhouseClustersPerAccount?: number;
  clickhouseClustersPerTrialAccount?: number;
  /**
   * QRYN_CLICKHOUSE_*: qryn's storage on an existing ClickHouse server or cluster instead of the embedded server under
   * DATA_DIR/storage (docs/qryn.md "Storage on an existing ClickHouse"). Absent: the embedded server.
   */
  qrynClickhouse?: QrynClickhouseSettings;
}

export interface QrynClickhouseSettings {
  /** QRYN_CLICKHOUSE_URL: the HTTP interface of the server the platform talks to (any node of the cluster). */
  url: string;
  /** QRYN_CLICKHOUSE_USER (default `default`) and QRYN_CLICKHOUSE_PASSWORD (default empty). */
  user: string;
  password: string;
  /** QRYN_CLICKHOUSE_DATABASE: the prefix of the instances' databases, `<prefix>_<instance id>` (default `qryn`). */
  databasePrefix: string;
  /** QRYN_CLICKHOUSE_CLUSTER: a cluster of the server's remote_servers; the tables are then sharded over it. */
  cluster?: string;
  /**
   * QRYN_CLICKHOUSE_REPLICATED=true: the servers have a ZooKeeper/Keeper and the macros {shard} and {replica}; the
   * local tables are then Replicated*MergeTree and the schema is created with ON CLUSTER.
   */
  replicated: boolean;
  /**
   * QRYN_CLICKHOUSE_NODE_URLS: the HTTP URLs of every node, comma-separated, when they cannot be derived from
   * system.clusters (each node's host name with the port of QRYN_CLICKHOUSE_URL).
   */
  nodeUrls?: string[];
  /**
   * QRYN_CLICKHOUSE_READ_TIMEOUT_S (default 20) and QRYN_CLICKHOUSE_INSERT_TIMEOUT_S (default 10): how long a read or
   * an insert waits for the storage before it is answered 503 (a stalled node must not hold clients for a minute).
   */
  readTimeoutMs: number;
  insertTimeoutMs: number;
}

export interface SocialOidcSettings {
  /** SOCIAL_OIDC_ISSUER: the provider's issuer; its discovery document is `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  /** SOCIAL_OIDC_CLIENT_ID and SOCIAL_OIDC_CLIENT_SECRET: this console's client at the provider. */
  clientId: string;
  clientSecret: string;
  /** SOCIAL_OIDC_LABEL: the button reads "Continue with {label}"; default the issuer's host name. */
  label: string;
  /** SOCIAL_OIDC_CONNECTION: the connection name of the accounts this provider creates (default google-oauth2). */
  connection: string;
}

/** The connection name social accounts carry by default (the demo account social@example.com has it). */
export const DEFAULT_SOCIAL_CONNECTION = 'google-oauth2';

export const DEFAULT_READ_CACHE_MS = 1_000;
export const DEFAULT_PROJECT_LIMIT_PER_ACCOUNT = 100;
export const DEFAULT_UNFINISHED_BILLING_ACCOUNT_DAYS = 7;
export const DEFAULT_EXTERNAL_CONNECT_ATTEMPTS = 10;
// A cluster runs at most 4 servers here (CLICKHOUSE_MAX_PROCESSES_PER_CLUSTER): 2 clusters stay below the machine's
// cap of 12 (CLICKHOUSE_MAX_PROCESSES), so one account can never take every server of the machine.
export const DEFAULT_CLICKHOUSE_CLUSTERS_PER_ACCOUNT = 2;
export const DEFAULT_CLICKHOUSE_CLUSTERS_PER_TRIAL_ACCOUNT = 1;

/** OUTBOUND_ALLOWED_NETWORKS, checked at start (a typo stops the start with the setting's name). */
function allowedNetworksFrom(env: NodeJS.ProcessEnv): string[] {
  const list = parseAllowedNetworks(env.OUTBOUND_ALLOWED_NETWORKS);
  createAddressRules(list);
  return list;
}

export function parseReadCache(value: string | undefined): number {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'on' || text === 'true') return DEFAULT_READ_CACHE_MS;
  if (text === 'off' || text === 'false') return 0;
  if (/^\d+$/.test(text)) return Number(text);
  throw new Error(`READ_CACHE must be on, off or a number of milliseconds (got '${value}')`);
}

/** A whole-number setting: unset or empty gives the default; anything else that is not a whole number ≥ minimum stops the start. */
export function wholeNumberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be a whole number of ${minimum} or more (got "${raw}").`);
  return value;
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
    // Developer pages (the outbox shows invitation codes and verification links) only where nobody else can reach
    // them, unless asked for by name.
    devPages: env.DEV_PAGES ? env.DEV_PAGES === 'true' : env.NODE_ENV !== 'production' && isLoopbackHost(host),
    devPagesKey: devPagesKeyFrom(env),
    staticDir: path.resolve(env.STATIC_DIR ?? 'dist'),
    grafanaUrl: env.GRAFANA_URL || undefined,
    grafanaToken: env.GRAFANA_TOKEN || undefined,
    grafanaPublicUrl: env.GRAFANA_PUBLIC_URL || undefined,
    production: env.NODE_ENV === 'production',
    seedDemoData: env.SEED_DEMO_DATA ? env.SEED_DEMO_DATA === 'true' : env.NODE_ENV !== 'production',
    signInProtection: signInProtectionFrom(env),
    reauthenticationMaxAgeSeconds: wholeNumberSetting(env, 'REAUTHENTICATION_MAX_AGE', 300),
    hepPort: Number(env.HEP_PORT || (env.NODE_ENV === 'test' ? 0 : 9060)),
    readCacheMs: parseReadCache(env.READ_CACHE),
    secretsEncryptionKey: env.SECRETS_ENCRYPTION_KEY || undefined,
    projectLimitPerAccount: wholeNumberSetting(env, 'PROJECT_LIMIT_PER_ACCOUNT', DEFAULT_PROJECT_LIMIT_PER_ACCOUNT, 1),
    socialOidc: socialOidcFrom(env),
    socialStandIn: socialStandInFrom(env, host, port),
    unfinishedBillingAccountDays: wholeNumberSetting(env, 'UNFINISHED_BILLING_ACCOUNT_DAYS', DEFAULT_UNFINISHED_BILLING_ACCOUNT_DAYS, 1),
    outboundAllowedNetworks: allowedNetworksFrom(env),
    externalConnectAttempts: wholeNumberSetting(env, 'EXTERNAL_CONNECT_ATTEMPTS', DEFAULT_EXTERNAL_CONNECT_ATTEMPTS, 1),
    clickhouseClustersPerAccount: wholeNumberSetting(env, 'CLICKHOUSE_CLUSTERS_PER_ORGANIZATION', DEFAULT_CLICKHOUSE_CLUSTERS_PER_ACCOUNT, 1),
    clickhouseClustersPerTrialAccount: wholeNumberSetting(env, 'CLICKHOUSE_CLUSTERS_PER_TRIAL_ORGANIZATION', DEFAULT_CLICKHOUSE_CLUSTERS_PER_TRIAL_ACCOUNT, 1),
    qrynClickhouse: qrynClickhouseFrom(env),
  };
}

const httpUrl = (name: string, value: string): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http or https URL of ClickHouse's HTTP interface (got "${value}").`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http or https URL (got "${value}").`);
  if (url.username || url.password) throw new Error(`${name} must not carry credentials: set QRYN_CLICKHOUSE_USER and QRYN_CLICKHOUSE_PASSWORD.`);
  return value.trim();
};

/** QRYN_CLICKHOUSE_*: all checked at start; a setting without QRYN_CLICKHOUSE_URL, or a malformed one, stops the start with its name. */
export function qrynClickhouseFrom(env: NodeJS.ProcessEnv): QrynClickhouseSettings | undefined {
  const url = (env.QRYN_CLICKHOUSE_URL ?? '').trim();
  const others = ['QRYN_CLICKHOUSE_USER', 'QRYN_CLICKHOUSE_PASSWORD', 'QRYN_CLICKHOUSE_DATABASE', 'QRYN_CLICKHOUSE_CLUSTER', 'QRYN_CLICKHOUSE_REPLICATED', 'QRYN_CLICKHOUSE_NODE_URLS', 'QRYN_CLICKHOUSE_READ_TIMEOUT_S', 'QRYN_CLICKHOUSE_INSERT_TIMEOUT_S'];
  if (!url) {
    const stray = others.filter((name) => env[name]);
    if (stray.length) throw new Error(`${stray.join(', ')} set without QRYN_CLICKHOUSE_URL: set the ClickHouse server's URL too, or unset them.`);
    return undefined;
  }
  const databasePrefix = (env.QRYN_CLICKHOUSE_DATABASE ?? '').trim() || 'qryn';
  // Database names are generated identifiers (storage-client.ts identifier()): lower-case letters, digits, _.
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(databasePrefix)) throw new Error(`QRYN_CLICKHOUSE_DATABASE must be lower-case letters, digits and _ (at most 41), starting with a letter or _ (got "${databasePrefix}").`);
  const cluster = (env.QRYN_CLICKHOUSE_CLUSTER ?? '').trim() || undefined;
  if (cluster && !/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/.test(cluster)) throw new Error(`QRYN_CLICKHOUSE_CLUSTER must be a cluster name of the server's remote_servers (letters, digits, _ . -; got "${cluster}").`);
  const replicatedText = (env.QRYN_CLICKHOUSE_REPLICATED ?? '').trim().toLowerCase();
  if (replicatedText && replicatedText !== 'true' && replicatedText !== 'false') throw new Error(`QRYN_CLICKHOUSE_REPLICATED must be true or false (got "${env.QRYN_CLICKHOUSE_REPLICATED}").`);
  const replicated = replicatedText === 'true';
  if (replicated && !cluster) throw new Error('QRYN_CLICKHOUSE_REPLICATED=true needs QRYN_CLICKHOUSE_CLUSTER: replicated tables are made on a cluster.');
  const nodeText = (env.QRYN_CLICKHOUSE_NODE_URLS ?? '').trim();
  if (nodeText && !cluster) throw new Error('QRYN_CLICKHOUSE_NODE_URLS needs QRYN_CLICKHOUSE_CLUSTER: the nodes are those of a cluster.');
  const nodeUrls = nodeText ? nodeText.split(',').map((n) => n.trim()).filter(Boolean).map((n) => httpUrl('QRYN_CLICKHOUSE_NODE_URLS', n)) : undefined;
  return {
    url: httpUrl('QRYN_CLICKHOUSE_URL', url),
    user: (env.QRYN_CLICKHOUSE_USER ?? '').trim() || 'default',
    password: env.QRYN_CLICKHOUSE_PASSWORD ?? '',
    databasePrefix,
    cluster,
    replicated,
    nodeUrls,
    readTimeoutMs: wholeNumberSetting(env, 'QRYN_CLICKHOUSE_READ_TIMEOUT_S', 20, 1) * 1000,
    insertTimeoutMs: wholeNumberSetting(env, 'QRYN_CLICKHOUSE_INSERT_TIMEOUT_S', 10, 1) * 1000,
  };
}

/** SOCIAL_OIDC_*: all of issuer, client id and secret, or none; anything half-set stops the start with its name. */
export function socialOidcFrom(env: NodeJS.ProcessEnv): SocialOidcSettings | undefined {
  const issuer = (env.SOCIAL_OIDC_ISSUER ?? '').trim();
  const clientId = (env.SOCIAL_OIDC_CLIENT_ID ?? '').trim();
  const clientSecret = env.SOCIAL_OIDC_CLIENT_SECRET ?? '';
  if (!issuer) {
    const stray = ['SOCIAL_OIDC_CLIENT_ID', 'SOCIAL_OIDC_CLIENT_SECRET', 'SOCIAL_OIDC_LABEL'].filter((name) => env[name]);
    if (stray.length) throw new Error(`${stray.join(', ')} set without SOCIAL_OIDC_ISSUER: set the provider's issuer too, or unset them.`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`SOCIAL_OIDC_ISSUER must be the provider's issuer URL (got "${issuer}").`);
  }
  // OpenID Connect requires https issuers; plain http only for a provider on this machine (the stand-in, tests).
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new Error(`SOCIAL_OIDC_ISSUER must use https (got "${issuer}"); plain http is accepted only on a loopback address.`);
  }
  if (!clientId) throw new Error('SOCIAL_OIDC_CLIENT_ID is missing: the client id this console has at the provider.');
  if (!clientSecret) throw new Error('SOCIAL_OIDC_CLIENT_SECRET is missing: the client secret this console has at the provider.');
  return {
    issuer,
    clientId,
    clientSecret,
    label: (env.SOCIAL_OIDC_LABEL ?? '').trim() || url.hostname,
    connection: (env.SOCIAL_OIDC_CONNECTION ?? '').trim() || DEFAULT_SOCIAL_CONNECTION,
  };
}

/**
 * The stand-in lets anyone type any email and be that social user: it runs only where nobody else can reach it,
 * never in production, and never when a real provider is configured.
 */
function socialStandInFrom(env: NodeJS.ProcessEnv, host: string, port: number): { enabled: boolean; port: number } {
  const asked = (env.SOCIAL_STAND_IN ?? '').trim().toLowerCase();
  if (asked && asked !== 'true' && asked !== 'false') throw new Error(`SOCIAL_STAND_IN must be true or false (got "${env.SOCIAL_STAND_IN}").`);
  if (asked === 'true' && env.NODE_ENV === 'production') throw new Error('SOCIAL_STAND_IN=true is refused with NODE_ENV=production: the stand-in signs anyone in as any email.');
  const enabled = !env.SOCIAL_OIDC_ISSUER && (asked ? asked === 'true' : env.NODE_ENV !== 'production' && isLoopbackHost(host));
  // Next to the platform's port, so the stand-in's issuer stays the same from one start to the next.
  return { enabled, port: wholeNumberSetting(env, 'SOCIAL_STAND_IN_PORT', port === 0 ? 0 : port + 1) };
}

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

// Keycloak's brute-force detection defaults where they exist (30 failures, 15 minutes, 12 hours), plus a short
// growing wait after the first few failures.
function signInProtectionFrom(env: NodeJS.ProcessEnv): { account: FailurePolicy; address: FailurePolicy } {
  const number = (name: string, fallback: number) => wholeNumberSetting(env, name, fallback);
  const account: FailurePolicy = {
    freeFailures: number('BRUTE_FORCE_FREE_FAILURES', 5),
    waitIncrementSeconds: number('BRUTE_FORCE_WAIT_INCREMENT_SECONDS', 5),
    maxWaitSeconds: number('BRUTE_FORCE_MAX_WAIT_SECONDS', 60),
    lockoutFailures: number('BRUTE_FORCE_LOCKOUT_FAILURES', 30),
    lockoutSeconds: number('BRUTE_FORCE_LOCKOUT_SECONDS', 900),
    resetSeconds: number('BRUTE_FORCE_RESET_SECONDS', 43_200),
  };
  // One address may carry many people (an office behind NAT): it gets the same curve, scaled up.
  const factor = Math.max(1, number('BRUTE_FORCE_ADDRESS_FACTOR', 10));
  const address: FailurePolicy = { ...account, freeFailures: account.freeFailures * factor, lockoutFailures: account.lockoutFailures * factor };
  return { account, address };
}
