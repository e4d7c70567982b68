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
  /** Grafana's HTTP API and a service-account token: both set = HTTP mode, else local mode (docs/grafana.md). */
  grafanaUrl?: string;
  grafanaToken?: string;
  /** Where people open Grafana, when it differs from GRAFANA_URL (the platform may reach Grafana privately). */
  grafanaPublicUrl?: string;
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
    grafanaUrl: env.GRAFANA_URL || undefined,
    grafanaToken: env.GRAFANA_TOKEN || undefined,
    grafanaPublicUrl: env.GRAFANA_PUBLIC_URL || undefined,
  };
}
