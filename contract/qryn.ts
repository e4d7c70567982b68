import { Schema } from 'effect';
import { IdFromString, Timestamp, requiredString } from './common';

// qryn (spec 001 §2 qryn, §3 qryn, §4 qryn, §5 qryn, §7 qryn, §9): an instance's config, its ingestion stats, its
// scoped tokens and the config switches. The enable body and the show-config shapes are in contract/stack.ts.

export const TOKEN_NAME_REQUIRED_MESSAGE = 'You must provide a name.';
export const TOKEN_CREATED_MESSAGE = 'The new token has been created!';
export const TOKEN_DELETED_MESSAGE = 'The token has been deleted!';
export const KEYS_ROTATED_MESSAGE = 'API keys rotated successfully';
export const STATS_UNAVAILABLE_MESSAGE = 'Ingestion Stats not currently available';
export const drilldownMessage = (enabled: boolean) => `Drilldown ${enabled ? 'enabled' : 'disabled'}`;
export const cacheMessage = (enabled: boolean) => `Server-side cache ${enabled ? 'enabled' : 'disabled'}`;
export const RETENTION_UPDATED_MESSAGE = 'The retention policy has been updated.';
export const FINGERPRINT_LIMIT_UPDATED_MESSAGE = 'The fingerprints limit has been updated.';
export const configLoadErrorMessage = (projectId: number) =>
  `We had some issues loading the configuration of the qryn integration for project ${projectId}`;
/** The Overview banner and the gateway's answer once the month's fingerprints reached the limit. */
export const FINGERPRINT_LIMIT_REACHED_MESSAGE =
  'The fingerprints limit of this month has been reached: ingestion of new fingerprints has stopped. Raise the limit on the Config page.';

/** Fingerprint limit steps by 1000; the spend limit is limit × 5/1000 USD, stepping by 5; 0 means off. */
export const FINGERPRINT_LIMIT_STEP = 1000;
export const FINGERPRINT_SPEND_STEP_USD = 5;
export const spendForFingerprintLimit = (limit: number) => (limit * 5) / 1000;

/** Token scopes: read, write or both ('read write'), default read. */
export const TOKEN_SCOPES = ['read', 'write', 'read write'] as const;
export const TokenScope = Schema.Literals(TOKEN_SCOPES);
export type TokenScope = typeof TokenScope.Type;

/** POST integrations/qryn/tokens (project_id in the query or the body). */
export const CreateTokenBody = Schema.Struct({
  name: requiredString(TOKEN_NAME_REQUIRED_MESSAGE).pipe(Schema.check(Schema.isMaxLength(100, { message: 'The name can have at most 100 characters.' }))),
  scope: Schema.optional(TokenScope),
});
export type CreateTokenBody = typeof CreateTokenBody.Type;

/** A scoped token. `token` is the full token only in the answer that created it; lists show a masked hint. */
export const QrynToken = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  scope: Schema.String,
  token: Schema.String,
  created_at: Timestamp,
});
export type QrynToken = typeof QrynToken.Type;
export const QrynTokenList = Schema.Array(QrynToken);

export const CreateTokenResponse = Schema.Struct({ message: Schema.String, token: QrynToken });

/** DELETE integrations/qryn/tokens/{id} */
export const TokenIdParam = Schema.Struct({ id: IdFromString });

/** GET integrations/qryn/config */
export const QrynConfig = Schema.Struct({
  id: Schema.String,
  project_id: Schema.Number,
  /** null for read-only members (they see only the Overview). */
  api_key: Schema.NullOr(Schema.String),
  /** Never returned after enable and rotate (it is stored hashed): always null here. */
  api_secret: Schema.Null,
  organization_id: Schema.NullOr(Schema.Number),
  clickhouse_cluster_id: Schema.String,
  writer_region_code: Schema.String,
  /** The instance URL: the gateway's base for every push and read path. */
  url: Schema.String,
  multi_org: Schema.Boolean,
  ttl_addon_id: Schema.String,
  ttl_days: Schema.Number,
  fingerprint_limit: Schema.Number,
  cache_enabled: Schema.Boolean,
  use_drilldown: Schema.Boolean,
  created_at: Timestamp,
  read_only_token: Schema.NullOr(Schema.String),
  /** The month's fingerprints reached a limit above 0 (the Overview banner). */
  fingerprint_limit_reached: Schema.Boolean,
  /**
   * The project's billing account has no payment method (spec 001's "trial": a trial account). The Config page
   * hides the retention policy and fingerprints limit cards then (docs/qryn.md).
   */
  trial: Schema.Boolean,
});
export type QrynConfig = typeof QrynConfig.Type;

/** GET integrations/qryn/config/credentials/rotate: the new pair, shown once. */
export const RotateCredentialsResponse = Schema.Struct({ message: Schema.String, api_key: Schema.String, api_secret: Schema.String });

/** GET integrations/qryn/metrics?start&end (seconds). Dates are seconds since the epoch (start of the day, UTC). */
export const QrynMetrics = Schema.Struct({
  bytes_count: Schema.Number,
  traces_count: Schema.Number,
  unique_metric_series_count: Schema.Number,
  metrics_and_logs_count: Schema.Number,
  rotation_policy_ttl: Schema.Number,
  /**
   * Storage quota in bytes; null = Unlimited. The bytes stored it is measured against are `data_bytes` (docs/qryn.md,
   * Limits: QRYN_MAX_STORED_BYTES).
   */
  size_limit: Schema.NullOr(Schema.Number),
  /** `data_bytes` reached `size_limit`: the gateway refuses pushes (429) until retention or deletion brings it under. */
  size_limit_reached: Schema.Boolean,
  data_bytes: Schema.Number,
  traces_rows: Schema.Number,
  traces_bytes: Schema.Number,
  metrics_rows: Schema.Number,
  metrics_bytes: Schema.Number,
  logs_rows: Schema.Number,
  logs_bytes: Schema.Number,
  fingerprints: Schema.Number,
  retaning_data_logs: Schema.NullOr(Schema.Number),
  retaning_data_traces: Schema.NullOr(Schema.Number),
  rotation_point: Schema.NullOr(Schema.Number),
  fingerprint_limit: Schema.Number,
  fingerprint_limit_reached: Schema.Boolean,
  /**
   * What the ingestion gateway refused of this instance since the platform started (docs/qryn.md, Limits): pushes
   * answered 429/503 while too many of its bytes were being written, pushes over the series-per-push or
   * samples-per-second limits, and sign-ins refused after too many failed ones.
   */
  refused_busy: Schema.Number,
  refused_over_limit: Schema.Number,
  refused_sign_ins: Schema.Number,
  /** Pushes refused because the instance stored more than its quota. */
  refused_over_quota: Schema.Number,
  /** The limits in force: distinct series per push, samples (lines, metric samples, spans) per second. */
  series_per_push_limit: Schema.Number,
  samples_per_second_limit: Schema.Number,
  /**
   * The instance's reads (PromQL, LogQL, TraceQL evaluations; docs/qryn.md, "Reads of many instances"): running and
   * waiting for their turn now, and since the platform started those refused (429, the instance's queue full), those
   * past their deadline, and the bytes of the answers sent. With the caps in force per instance.
   */
  reads_running: Schema.Number,
  reads_queued: Schema.Number,
  reads_refused: Schema.Number,
  reads_timed_out: Schema.Number,
  reads_bytes_answered: Schema.Number,
  reads_running_limit: Schema.Number,
  reads_queued_limit: Schema.Number,
});
export type QrynMetrics = typeof QrynMetrics.Type;

const Seconds = Schema.NumberFromString.pipe(
  Schema.check(Schema.isInt({ message: 'Must be whole seconds' }), Schema.isGreaterThanOrEqualTo(0, { message: 'Must not be negative' })),
);
export const MetricsQuery = Schema.Struct({ project_id: IdFromString, start: Seconds, end: Seconds });

/** PATCH integrations/qryn/retention/policies */
export const UpdateRetentionBody = Schema.Struct({ ttl_addon_id: requiredString('Please select a retention plan.') });
/** PATCH integrations/qryn/fingerprints/limit: a multiple of 1000, 0 = off. */
export const UpdateFingerprintLimitBody = Schema.Struct({
  limit: Schema.Int.pipe(
    Schema.check(
      Schema.isGreaterThanOrEqualTo(0, { message: 'The limit cannot be negative.' }),
      Schema.isLessThanOrEqualTo(1_000_000_000, { message: 'The limit is too large.' }),
      Schema.makeFilter((n: number) => n % FINGERPRINT_LIMIT_STEP === 0 || `The limit must be a multiple of ${FINGERPRINT_LIMIT_STEP}.`),
    ),
  ),
});
/** PATCH integrations/qryn/cache and PATCH integrations/qryn/drilldown */
export const ToggleBody = Schema.Struct({ enabled: Schema.Boolean });

/** GET costs when the storage cannot be read (503). */
export const COSTS_UNAVAILABLE_MESSAGE = 'Costs not currently available';

/** What the store holds, by kind of data (docs/qryn.md "Costs"): samples of each type, and the label index. */
export const COST_TYPES = ['logs', 'metrics', 'traces', 'index'] as const;
export const QrynCostLine = Schema.Struct({ type: Schema.Literals(COST_TYPES), bytes: Schema.Number, cents: Schema.Number });
/** One volume tier of the plan's price list as it applies to what is stored: its GB and their cents. */
export const QrynCostTier = Schema.Struct({ starting_unit: Schema.Number, ending_unit: Schema.NullOr(Schema.Number), price: Schema.Number, gb: Schema.Number, cents: Schema.Number });
/**
 * GET integrations/qryn/costs: the current month's (UTC) cost at the volume stored now: stored GB priced by the
 * retention plan's volume tiers (cents per GB per month), plus the fingerprints limit's spend (limit × 5/1000 USD).
 * Cents may have fractions; the console rounds to whole cents.
 */
export const QrynCosts = Schema.Struct({
  period_start: Schema.Number,
  period_end: Schema.Number,
  measured_at: Schema.Number,
  ttl_addon_id: Schema.String,
  plan_name: Schema.String,
  stored_bytes: Schema.Number,
  storage_cents: Schema.Number,
  storage: Schema.Array(QrynCostLine),
  tiers: Schema.Array(QrynCostTier),
  fingerprint_limit: Schema.Number,
  fingerprint_cents: Schema.Number,
  total_cents: Schema.Number,
});
export type QrynCosts = typeof QrynCosts.Type;

/** POST integrations/qryn/instrument: the project's ClickHouse clusters whose system tables qryn scrapes. */
export const INSTRUMENT_CLUSTER_REQUIRED_MESSAGE = 'You must select at least one cluster to instrument.';
export const INSTRUMENT_UNKNOWN_CLUSTER_MESSAGE = 'Only running ClickHouse clusters of this project can be instrumented.';
export const INSTRUMENTED_MESSAGE = 'The clusters are instrumented.';
export const InstrumentBody = Schema.Struct({
  cluster_ids: Schema.Array(Schema.String.pipe(Schema.check(Schema.isMinLength(1, { message: INSTRUMENT_CLUSTER_REQUIRED_MESSAGE }))))
    .pipe(Schema.check(Schema.makeFilter((ids: readonly string[]) => ids.length > 0 || INSTRUMENT_CLUSTER_REQUIRED_MESSAGE)))
    .annotateKey({ messageMissingKey: INSTRUMENT_CLUSTER_REQUIRED_MESSAGE }),
});
/** GET integrations/qryn/instrumented-applications: what is instrumented and how its last scrape went. */
export const InstrumentedApplication = Schema.Struct({
  cluster_id: Schema.String,
  name: Schema.String,
  instrumented_at: Schema.String,
  last_scrape_at: Schema.NullOr(Schema.String),
  last_scrape_samples: Schema.NullOr(Schema.Number),
  last_error: Schema.NullOr(Schema.String),
});
export type InstrumentedApplication = typeof InstrumentedApplication.Type;
export const InstrumentedApplicationList = Schema.Array(InstrumentedApplication);
export const InstrumentResponse = Schema.Struct({ message: Schema.String, applications: InstrumentedApplicationList });
