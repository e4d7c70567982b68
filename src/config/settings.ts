// The console's build-time settings: the only module that reads VITE_* variables. vite.config.ts runs
// parseSettings() on the same variables so a missing or malformed setting fails the build, not the browser.

export type Environment = 'production' | 'dev' | 'local';

export interface Settings {
  environment: Environment;
  /** Base URL of the platform API, absolute or relative to the page origin (ends with '/'). */
  apiUrl: string;
  paymentPublicKey: string;
  /** The OpenID Connect identity service (domain, client id and API audience). */
  identityProvider: { domain: string; clientId: string; audience: string };
  /** The realm-based identity server keycloak-js talks to. */
  identityServer: { url: string; realm: string; clientId: string };
  telemetryCollectUrl: string;
  packageVersion: string;
  /** Card mock mode: the card form talks to the platform's local payment adapter instead of the provider. */
  cardMock: boolean;
  /** Hides the Billing link (spec: "hidden only when a mock flag is on"); separate from cardMock on purpose. */
  hideBilling: boolean;
  supportEmail: string;
  docsUrl: string;
  /** The platform's own legal pages (the invitation's terms box). */
  privacyPolicyUrl: string;
  termsUrl: string;
  /** The payment provider's legal pages (the card form's terms box). */
  paymentPrivacyUrl: string;
  paymentTermsUrl: string;
}

export type SettingsSource = Record<string, string | boolean | undefined>;

interface SettingDefinition {
  key: string;
  /** The local platform's value, used when the variable is absent. undefined = required without default. */
  fallback?: string;
  required: boolean;
  check: (value: string) => string | null;
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid console settings:\n  - ${problems.join('\n  - ')}`);
    this.name = 'SettingsError';
  }
}

const isUrlOrPath = (value: string): string | null => {
  if (value.startsWith('/')) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http(s) URL or a path starting with /';
  } catch {
    return 'must be an http(s) URL or a path starting with /';
  }
};
const isOneOf =
  (...allowed: string[]) =>
  (value: string): string | null =>
    allowed.includes(value) ? null : `must be one of ${allowed.join(', ')}`;
const isBoolean = isOneOf('true', 'false');
const isIdentifier = (value: string): string | null =>
  /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value) ? null : 'must contain only letters, digits, dot, dash or underscore';
const isVersion = (value: string): string | null =>
  /^\d+\.\d+\.\d+(?:[-+][\w.]+)?$/.test(value) ? null : 'must be a semantic version like 2.28.13';
const isPublicKey = (value: string): string | null =>
  /^pk_[A-Za-z0-9_]+$/.test(value) ? null : "must be a publishable key starting with 'pk_'";
const isEmail = (value: string): string | null => (/^[^\s@]+@[^\s@]+$/.test(value) ? null : 'must be an email address');

export const SETTING_DEFINITIONS = {
  environment: { key: 'VITE_ENVIRONMENT', fallback: 'production', required: true, check: isOneOf('production', 'dev', 'local') },
  apiUrl: { key: 'VITE_API_URL', fallback: '/api/', required: true, check: isUrlOrPath },
  paymentPublicKey: { key: 'VITE_PAYMENT_PUBLIC_KEY', fallback: 'pk_local_mock', required: true, check: isPublicKey },
  identityProviderDomain: { key: 'VITE_IDENTITY_PROVIDER_DOMAIN', fallback: '/', required: true, check: isUrlOrPath },
  identityProviderClientId: { key: 'VITE_IDENTITY_PROVIDER_CLIENT_ID', fallback: 'console', required: true, check: isIdentifier },
  identityProviderAudience: { key: 'VITE_IDENTITY_PROVIDER_AUDIENCE', fallback: '/api', required: true, check: isUrlOrPath },
  identityServerUrl: { key: 'VITE_IDENTITY_SERVER_URL', fallback: '/', required: true, check: isUrlOrPath },
  identityServerRealm: { key: 'VITE_IDENTITY_SERVER_REALM', fallback: 'observability', required: true, check: isIdentifier },
  identityServerClientId: { key: 'VITE_IDENTITY_SERVER_CLIENT_ID', fallback: 'console', required: true, check: isIdentifier },
  telemetryCollectUrl: { key: 'VITE_TELEMETRY_COLLECT_URL', fallback: '/api/telemetry', required: true, check: isUrlOrPath },
  // No fallback: vite.config.ts injects it from package.json, so a build without it is a broken build.
  packageVersion: { key: 'VITE_PACKAGE_VERSION', required: true, check: isVersion },
  cardMock: { key: 'VITE_CARD_MOCK', fallback: 'true', required: false, check: isBoolean },
  hideBilling: { key: 'VITE_HIDE_BILLING', fallback: 'false', required: false, check: isBoolean },
  supportEmail: { key: 'VITE_SUPPORT_EMAIL', fallback: 'support@example.com', required: false, check: isEmail },
  docsUrl: { key: 'VITE_DOCS_URL', fallback: 'https://qryn.dev', required: false, check: isUrlOrPath },
  privacyPolicyUrl: { key: 'VITE_PRIVACY_POLICY_URL', fallback: 'https://qryn.cloud/privacy', required: false, check: isUrlOrPath },
  termsUrl: { key: 'VITE_TERMS_URL', fallback: 'https://qryn.cloud/terms', required: false, check: isUrlOrPath },
  paymentPrivacyUrl: { key: 'VITE_PAYMENT_PRIVACY_URL', fallback: 'https://stripe.com/privacy', required: false, check: isUrlOrPath },
  paymentTermsUrl: { key: 'VITE_PAYMENT_TERMS_URL', fallback: 'https://stripe.com/legal/consumer', required: false, check: isUrlOrPath },
} satisfies Record<string, SettingDefinition>;

type SettingName = keyof typeof SETTING_DEFINITIONS;

/** Validates every setting and reports all problems at once, each naming its variable. */
export function parseSettings(source: SettingsSource): Settings {
  const problems: string[] = [];
  const read = (name: SettingName): string => {
    const definition: SettingDefinition = SETTING_DEFINITIONS[name];
    const raw = source[definition.key];
    const value = raw === undefined ? definition.fallback : String(raw).trim();
    if (value === undefined || value === '') {
      if (definition.required) problems.push(`${definition.key} is required but missing`);
      return definition.fallback ?? '';
    }
    const problem = definition.check(value);
    if (problem) problems.push(`${definition.key} ${problem} (got '${value}')`);
    return value;
  };
  const settings: Settings = {
    environment: read('environment') as Environment,
    apiUrl: withTrailingSlash(read('apiUrl')),
    paymentPublicKey: read('paymentPublicKey'),
    identityProvider: {
      domain: read('identityProviderDomain'),
      clientId: read('identityProviderClientId'),
      audience: read('identityProviderAudience'),
    },
    identityServer: {
      url: read('identityServerUrl'),
      realm: read('identityServerRealm'),
      clientId: read('identityServerClientId'),
    },
    telemetryCollectUrl: read('telemetryCollectUrl'),
    packageVersion: read('packageVersion'),
    cardMock: read('cardMock') === 'true',
    hideBilling: read('hideBilling') === 'true',
    supportEmail: read('supportEmail'),
    docsUrl: read('docsUrl'),
    privacyPolicyUrl: read('privacyPolicyUrl'),
    termsUrl: read('termsUrl'),
    paymentPrivacyUrl: read('paymentPrivacyUrl'),
    paymentTermsUrl: read('paymentTermsUrl'),
  };
  if (problems.length > 0) throw new SettingsError(problems);
  return settings;
}

function withTrailingSlash(value: string): string {
  return value.endsWith('/') ? value : `${value}/`;
}

/** Relative settings are resolved against the page origin so one build runs on any host and port. */
export function resolveUrl(value: string, origin: string): string {
  return new URL(value, `${origin}/`).toString();
}

/** The identity server base without a trailing slash (keycloak-js appends /realms/{realm}). */
export function resolveIdentityServerUrl(value: string, origin: string): string {
  return resolveUrl(value, origin).replace(/\/$/, '');
}

// import.meta.env is undefined when vite.config.ts imports this module in Node; it only needs parseSettings then.
const env: SettingsSource | undefined = (import.meta as { env?: SettingsSource }).env;
export const settings: Settings = env?.VITE_PACKAGE_VERSION ? parseSettings(env) : parseSettings({ ...env, VITE_PACKAGE_VERSION: '0.0.0' });
