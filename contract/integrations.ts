import { Schema } from 'effect';
import { Timestamp } from './common';
import { INTEGRATION_STATUSES } from './integration-statuses';
import { Product } from './products';

// Integrations (products enabled in a project), read side (spec 001 §3, §4, §7 Integrations).

export { INTEGRATION_STATUSES };
export const IntegrationStatus = Schema.Literals(INTEGRATION_STATUSES);
export type IntegrationStatus = typeof IntegrationStatus.Type;

export const IntegrationCreator = Schema.Struct({
  id: Schema.NullOr(Schema.String),
  given_name: Schema.String,
  family_name: Schema.String,
  email: Schema.String,
});

export const Integration = Schema.Struct({
  id: Schema.Number,
  project_id: Schema.Number,
  created_at: Timestamp,
  creator_name: Schema.String,
  status: IntegrationStatus,
  product: Product,
  /** Who added it. */
  user: Schema.NullOr(IntegrationCreator),
  /** The current user is in this integration's user list (Grafana, Hepic). */
  is_user_active: Schema.Boolean,
  /** Usable now: trial or active; for Hepic also only when the user is listed. */
  is_available: Schema.Boolean,
});
export type Integration = typeof Integration.Type;
export const IntegrationList = Schema.Array(Integration);


/** GET integrations/{integration}/trial */
export const IntegrationTrialResponse = Schema.Struct({ remaining_days: Schema.Number });
export type IntegrationTrialResponse = typeof IntegrationTrialResponse.Type;

/** GET integrations/{integration}/cancellation: seconds since the epoch, null when none is scheduled. */
export const IntegrationCancellationResponse = Schema.Struct({
  cancellation_date_timestamp: Schema.NullOr(Schema.Number),
});
export type IntegrationCancellationResponse = typeof IntegrationCancellationResponse.Type;

/** GET integrations/status: one entry per product (and one for the platform itself), each with its services. */
export const ServiceStatus = Schema.Struct({
  product: Schema.String,
  slug: Schema.String,
  services: Schema.Array(Schema.Struct({ name: Schema.String, running: Schema.Boolean })),
});
export type ServiceStatus = typeof ServiceStatus.Type;
export const ServiceStatusList = Schema.Array(ServiceStatus);

/** The product's main status on the system status page (spec 001 §4). */
export function productMainStatus(services: readonly { running: boolean }[]): 'SUCCESS' | 'WARNING' | 'ERROR' {
  if (services.length === 0) return 'ERROR';
  const running = services.filter((s) => s.running).length;
  if (running === services.length) return 'SUCCESS';
  return running === 0 ? 'ERROR' : 'WARNING';
}

/** POST integrations/{integration}/cancel: when it ends, and every subscription it cancelled (Grafana: the organization's). */
export const IntegrationCancelResponse = Schema.Struct({
  message: Schema.String,
  cancellation_date_timestamp: Schema.Number,
  cancelled: Schema.Array(Schema.Struct({ integration_id: Schema.Number, project_id: Schema.Number, cancellation_date_timestamp: Schema.Number })),
});
export type IntegrationCancelResponse = typeof IntegrationCancelResponse.Type;
