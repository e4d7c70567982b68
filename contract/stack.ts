import { Schema } from 'effect';
import { requiredString } from './common';

// The stack: enabling a product (spec 001 §2 Enabling a product, §3 Enable-product form and response, §5 Generic)
// and the show-config options that qryn and Hepic load before they are enabled. The options are read through the
// products' own calls (GET integrations/qryn/cloud/resources, integrations/hepic/plans …) but share these shapes.

export const SELECT_PRODUCT_MESSAGE = 'Please select a product';
export const SELECT_PROJECT_MESSAGE = 'Please select a project';
export const PRODUCT_ERROR_MESSAGE = 'There is an error with the selected product';
export const productNotEnabledMessage = (slug: string) => `${slug} couldn't be enabled`;
export const SELECT_WRITER_REGION_MESSAGE = 'Please select from where qryn data will be ingested';
export const SELECT_STORAGE_MESSAGE = 'Please select where the data will be stored.';
export const SELECT_PRICING_PLAN_MESSAGE = 'Please select a pricing plan.';

/** The enable form of the console (spec: productSlug, projectId, step, op). */
export const EnableForm = Schema.Struct({
  productSlug: requiredString(SELECT_PRODUCT_MESSAGE),
  projectId: requiredString(SELECT_PROJECT_MESSAGE),
});
export type EnableForm = typeof EnableForm.Type;

/** One row of the show-info step (e.g. API KEY / API SECRET). */
export const InfoItem = Schema.Struct({ label: Schema.String, value: Schema.String });
export type InfoItem = typeof InfoItem.Type;

/** The enable form's steps (spec 001 §2): enable → show-config (qryn, Hepic) → show-info; dismiss-config resets. */
export const ENABLE_STEPS = ['enable', 'show-config', 'show-info'] as const;
export type EnableStep = (typeof ENABLE_STEPS)[number];

/**
 * POST integrations/{product}/?project_id — every product answers this; qryn also answers api_key and api_secret
 * (spec §7 qryn), repeated as show-info items. The spec's response fields (§3: product, enabled, step, items,
 * hasJsonDownload, errors): `product` is the slug, a success is `enabled: true` at `step: 'show-info'` with no
 * `errors`; a refusal of the show-config fields answers 400 with `enabled: false`, `step: 'show-config'` and the
 * field messages in `errors` (and in `details`, as every field refusal of the API).
 */
export const EnableProductResponse = Schema.Struct({
  message: Schema.String,
  product: Schema.String,
  enabled: Schema.Boolean,
  step: Schema.Literals(ENABLE_STEPS),
  errors: Schema.Record(Schema.String, Schema.Array(Schema.String)),
  integration_id: Schema.Number,
  items: Schema.Array(InfoItem),
  has_json_download: Schema.Boolean,
  api_key: Schema.optional(Schema.String),
  api_secret: Schema.optional(Schema.String),
});
export type EnableProductResponse = typeof EnableProductResponse.Type;

/**
 * A place the data of qryn or Hepic can live (spec §3 Cloud instance): the platform's shared storage in a region,
 * or one of the project's own ClickHouse clusters. The id is text because both kinds are offered in one list.
 */
export const CloudResource = Schema.Struct({
  clickhouse_cluster_id: Schema.String,
  name: Schema.String,
  region_code: Schema.String,
  region_name: Schema.String,
  continent: Schema.String,
  /** 'shared': run by the platform; 'project': a cluster of this project. */
  kind: Schema.Literals(['shared', 'project']),
});
export type CloudResource = typeof CloudResource.Type;
export const CloudResourceList = Schema.Array(CloudResource);

/** Where qryn accepts writes from (GET integrations/qryn/writer-regions). */
export const WriterRegion = Schema.Struct({ code: Schema.String, name: Schema.String, continent: Schema.String });
export type WriterRegion = typeof WriterRegion.Type;
export const WriterRegionList = Schema.Array(WriterRegion);

/** A price tier of a retention plan: price in cents per GB (shown divided by 100). */
export const RetentionTier = Schema.Struct({
  starting_unit: Schema.Number,
  ending_unit: Schema.NullOr(Schema.Number),
  price: Schema.Number,
});

/** GET integrations/qryn/retention/policies (spec §3 Retention policy). name is "<family>-<label>". */
export const RetentionPolicy = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  item_family_id: Schema.String,
  item_id: Schema.String,
  description: Schema.String,
  status: Schema.String,
  external_name: Schema.String,
  ttl_days: Schema.Number,
  tiers: Schema.Array(RetentionTier),
});
export type RetentionPolicy = typeof RetentionPolicy.Type;
export const RetentionPolicyList = Schema.Array(RetentionPolicy);

/** POST integrations/qryn/ */
export const QrynEnableBody = Schema.Struct({
  cluster_id: requiredString(SELECT_STORAGE_MESSAGE),
  writer_region_code: requiredString(SELECT_WRITER_REGION_MESSAGE),
  multi_org: Schema.optional(Schema.Boolean),
  ttl_addon_id: Schema.optional(Schema.String),
});
export type QrynEnableBody = typeof QrynEnableBody.Type;

/** GET integrations/hepic/plans: price in cents (shown divided by 100). */
export const HepicPlan = Schema.Struct({ id: Schema.String, description: Schema.String, price: Schema.Number });
export type HepicPlan = typeof HepicPlan.Type;
export const HepicPlanList = Schema.Array(HepicPlan);

/** POST integrations/hepic/ */
export const HepicEnableBody = Schema.Struct({
  price_id: requiredString(SELECT_PRICING_PLAN_MESSAGE),
  cluster_id: requiredString(SELECT_STORAGE_MESSAGE),
});
export type HepicEnableBody = typeof HepicEnableBody.Type;
