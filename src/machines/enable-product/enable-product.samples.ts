// Sample events of the enable-product machine: what its model test (tests/model/enable-product.test.tsx) replays, and
// what the browser walk (e2e/paths-enable-product.spec.ts) and the statechart studio play. One start per way the
// machine goes (an incomplete form, a product with show-config, one enabled directly, one it cannot add); the option
// loads' outputs are one per show-config form.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { ConfigOptions, EnableProductResult } from '../../services/stack';
import type { EnableProductContext, EnableProductMachine } from './enable-product.machine';

export const SAMPLE_PROJECT = { projectId: '7', projectSlug: 'acme-production-7' };
/** A slug the catalogue could list that no flow of this console knows. */
export const SAMPLE_UNKNOWN_PRODUCT = 'nope';

const start = (productSlug: string, where = SAMPLE_PROJECT) => ({ type: 'enable.start' as const, productSlug, ...where });
const resources = [{ clickhouseClusterId: 'shared-eu', name: 'Shared storage', regionCode: 'eu', regionName: 'Frankfurt', continent: 'Europe', kind: 'shared' as const }];

export const SAMPLE_QRYN_OPTIONS: ConfigOptions = {
  kind: 'qryn',
  resources,
  writerRegions: [{ code: 'eu', name: 'Frankfurt', continent: 'Europe' }],
  retentionPolicies: [{ id: 'ttl-30', name: 'retention-30 days', itemFamilyId: 'f', itemId: 'i', description: '', status: 'active', externalName: '', ttlDays: 30, tiers: [] }],
};
export const SAMPLE_HEPIC_OPTIONS: ConfigOptions = { kind: 'hepic', resources, plans: [{ id: 'plan-basic', description: 'Basic', price: 4900 }] };
export const SAMPLE_ENABLED_RESULT: EnableProductResult = {
  message: 'Observability has been enabled.',
  product: 'qryn',
  enabled: true,
  step: 'show-info',
  errors: {},
  integrationId: 12,
  items: [
    { label: 'API KEY', value: 'key-123' },
    { label: 'API SECRET', value: 'secret-456' },
  ],
  hasJsonDownload: true,
};
/** A show-config input both forms accept (each reads its own fields). */
export const SAMPLE_VALID_CONFIG = { cluster_id: 'shared-eu', writer_region_code: 'eu', price_id: 'plan-basic' };
export const SAMPLE_FIELD_REFUSAL = { cluster_id: ['This storage is full.'] };
export const SAMPLE_SERVER_REFUSAL = { message: "grafana couldn't be enabled", description: 'Grafana has no back end in this installation yet.' };
export const SAMPLE_LOAD_FAILURE = { message: 'We encountered an error while fetching some data.', description: 'Please reload.' };

export const enableProductEvents = {
  'enable.start': [start('', { projectId: '', projectSlug: '' }), start('qryn'), start('hepic'), start('grafana'), start(SAMPLE_UNKNOWN_PRODUCT)],
  'config.submit': [
    { type: 'config.submit', values: {} },
    { type: 'config.submit', values: SAMPLE_VALID_CONFIG },
  ],
  'config.dismiss': [{ type: 'config.dismiss' }],
  'enable.reset': [{ type: 'enable.reset' }],
  'xstate.done.actor.loadConfigOptions': [
    { type: 'xstate.done.actor.loadConfigOptions', output: SAMPLE_QRYN_OPTIONS },
    { type: 'xstate.done.actor.loadConfigOptions', output: SAMPLE_HEPIC_OPTIONS },
  ],
  'xstate.error.actor.loadConfigOptions': [
    { type: 'xstate.error.actor.loadConfigOptions', error: Object.assign(new Error(SAMPLE_LOAD_FAILURE.message), { description: SAMPLE_LOAD_FAILURE.description }) },
  ],
  'xstate.done.actor.enableProduct': [{ type: 'xstate.done.actor.enableProduct', output: SAMPLE_ENABLED_RESULT }],
  'xstate.error.actor.enableProduct': [
    { type: 'xstate.error.actor.enableProduct', error: Object.assign(new Error('Validation failed'), { details: SAMPLE_FIELD_REFUSAL }) },
    { type: 'xstate.error.actor.enableProduct', error: Object.assign(new Error(SAMPLE_SERVER_REFUSAL.message), { description: SAMPLE_SERVER_REFUSAL.description }) },
  ],
} satisfies ModelEvents<EnableProductMachine>;

export const serializeEnableProductContext = (c: EnableProductContext) => ({
  slug: c.productSlug,
  kind: c.options?.kind,
  errors: Object.keys(c.fieldErrors),
  error: c.error?.message,
  result: Boolean(c.result),
});

export const enableProductSamples: ModelSamples = {
  events: enableProductEvents,
  serializeContext: serializeEnableProductContext,
  simplePaths: false,
};
