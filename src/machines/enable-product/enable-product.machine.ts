/**
 * Enabling a product in a project (spec 001 §2 Enabling a product, §5 Generic): one flow for every product.
 * States:
 * - idle           nothing chosen; `enable.start` checks the form (productSlug, projectId) and the product
 * - invalid        the form is incomplete: 'Please select a product' / 'Please select a project' at the field
 * - loadingConfig  qryn and Hepic: the show-config options load (storage places, writer regions, retention, plans)
 * - showConfig     the show-config form; errors per field (the client's own check, then the server's 422)
 * - submitting     POST integrations/{product}/ with the show-config input
 * - showInfo       enabled true: the product's info (qryn: API KEY and API SECRET, a JSON download)
 * - enabling       Grafana, ClickHouse and Loggen: POST integrations/{product}/ directly
 * - enabled        done; the user has been sent to /{projectSlug}/stack/{product}
 * - failed         'There is an error with the selected product' or '{slug} couldn't be enabled'
 * `config.dismiss` (the spec's dismiss-config) and `enable.reset` (closing an error) go back to idle, nothing kept.
 */
import { assign, fromPromise, setup } from 'xstate';
import { decodeInput } from '../../../contract/common';
import {
  EnableForm,
  HepicEnableBody,
  PRODUCT_ERROR_MESSAGE,
  productNotEnabledMessage,
  QrynEnableBody,
} from '../../../contract/stack';
import type { ConfigOptions, EnableProductResult } from '../../services/stack';

/** Products with a show-config step before they are enabled. */
export const CONFIGURED_PRODUCTS = ['qryn', 'hepic'] as const;
/** Products enabled at once, then opened. */
export const DIRECT_PRODUCTS = ['grafana', 'clickhouse', 'loggen'] as const;

export type ConfigValues = Record<string, string>;
export type FieldErrors = Record<string, string[]>;

export interface EnableProductContext {
  productSlug: string;
  projectId: string;
  projectSlug: string;
  options: ConfigOptions | null;
  /** The show-config form as the user last submitted it (kept on failure). */
  values: ConfigValues;
  fieldErrors: FieldErrors;
  error: { message: string; description: string } | null;
  result: EnableProductResult | null;
}

export type EnableProductEvent =
  | { type: 'enable.start'; productSlug: string; projectId: string; projectSlug: string }
  | { type: 'config.submit'; values: ConfigValues }
  | { type: 'config.dismiss' }
  | { type: 'enable.reset' };

const initialContext: EnableProductContext = {
  productSlug: '',
  projectId: '',
  projectSlug: '',
  options: null,
  values: {},
  fieldErrors: {},
  error: null,
  result: null,
};

const isConfigured = (slug: string) => (CONFIGURED_PRODUCTS as readonly string[]).includes(slug);
const isDirect = (slug: string) => (DIRECT_PRODUCTS as readonly string[]).includes(slug);
// The form checked is the form shown: its fields come from the options that were loaded.
const configSchema = (options: ConfigOptions | null) => (options?.kind === 'hepic' ? HepicEnableBody : QrynEnableBody);

function formErrors(event: { productSlug: string; projectId: string }): FieldErrors {
  const outcome = decodeInput(EnableForm, { productSlug: event.productSlug.trim(), projectId: event.projectId.trim() });
  return outcome.ok ? {} : outcome.errors;
}

function configErrors(options: ConfigOptions | null, values: ConfigValues): FieldErrors {
  const outcome = decodeInput(configSchema(options), values);
  return outcome.ok ? {} : outcome.errors;
}

/** The server's refusal: its field messages (422), or '{slug} couldn't be enabled' with its description. */
function failure(slug: string, error: unknown): { error: EnableProductContext['error']; fieldErrors: FieldErrors } {
  const e = error as { details?: unknown; description?: unknown; message?: unknown } | null;
  if (e && typeof e.details === 'object' && e.details !== null && Object.keys(e.details).length > 0) {
    const fieldErrors = Object.fromEntries(
      Object.entries(e.details as Record<string, unknown>).map(([field, messages]) => [field, Array.isArray(messages) ? messages.map(String) : [String(messages)]]),
    );
    return { error: null, fieldErrors };
  }
  const description = e && typeof e.description === 'string' && e.description ? e.description : typeof e?.message === 'string' ? e.message : '';
  return { error: { message: productNotEnabledMessage(slug), description }, fieldErrors: {} };
}

/** A refusal shown above everything (no form to put field messages on). */
function failureMessage(slug: string, error: unknown): NonNullable<EnableProductContext['error']> {
  const { error: shown, fieldErrors } = failure(slug, error);
  return shown ?? { message: productNotEnabledMessage(slug), description: Object.values(fieldErrors).flat().join(' ') };
}

const chosen = (event: { productSlug: string; projectId: string; projectSlug: string }) => ({
  ...initialContext,
  productSlug: event.productSlug.trim(),
  projectId: event.projectId.trim(),
  projectSlug: event.projectSlug,
});

// `enable.start` (from idle, or after a product was opened): check the form, then the product decides the way.
const start = [
  { guard: 'formInvalid', target: '#enableProduct.invalid', actions: 'rejectForm' },
  { guard: 'needsConfig', target: '#enableProduct.loadingConfig', actions: 'chooseProduct' },
  { guard: 'enabledDirectly', target: '#enableProduct.enabling', actions: 'chooseProduct' },
  { target: '#enableProduct.failed', actions: 'rejectProduct' },
] as const;

export const enableProductMachine = setup({
  types: {
    context: {} as EnableProductContext,
    events: {} as EnableProductEvent,
  },
  actors: {
    loadConfigOptions: fromPromise<ConfigOptions, { productSlug: 'qryn' | 'hepic'; projectId: number }>(async () => {
      throw new Error('loadConfigOptions is provided where the actor is created');
    }),
    enableProduct: fromPromise<EnableProductResult, { productSlug: string; projectId: number; input: Record<string, unknown> }>(async () => {
      throw new Error('enableProduct is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    openProduct: (_, _params: { projectSlug: string; productSlug: string }) => undefined,
    refreshIntegrations: () => undefined,
    rejectForm: assign(({ event }) => ({ ...initialContext, fieldErrors: event.type === 'enable.start' ? formErrors(event) : {} })),
    reset: assign(() => initialContext),
    chooseProduct: assign(({ event }) => (event.type === 'enable.start' ? chosen(event) : {})),
    rejectProduct: assign(({ event }) =>
      event.type === 'enable.start'
        ? { ...chosen(event), error: { message: PRODUCT_ERROR_MESSAGE, description: `"${event.productSlug.trim()}" cannot be added to a project from here.` } }
        : {},
    ),
  },
  guards: {
    formInvalid: ({ event }) => event.type === 'enable.start' && Object.keys(formErrors(event)).length > 0,
    needsConfig: ({ event }) => event.type === 'enable.start' && isConfigured(event.productSlug.trim()),
    enabledDirectly: ({ event }) => event.type === 'enable.start' && isDirect(event.productSlug.trim()),
    configInvalid: ({ context, event }) => event.type === 'config.submit' && Object.keys(configErrors(context.options, event.values)).length > 0,
  },
}).createMachine({
  id: 'enableProduct',
  context: initialContext,
  initial: 'idle',
  states: {
    idle: {
      on: {
        'enable.start': start,
      },
    },
    invalid: { on: { 'enable.reset': { target: 'idle', actions: 'reset' } } },
    loadingConfig: {
      invoke: {
        id: 'loadConfigOptions',
        src: 'loadConfigOptions',
        input: ({ context }) => ({ productSlug: context.productSlug as 'qryn' | 'hepic', projectId: Number(context.projectId) }),
        onDone: { target: 'showConfig', actions: assign({ options: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign(({ context, event }) => ({ error: failureMessage(context.productSlug, event.error) })),
        },
      },
      on: { 'config.dismiss': { target: 'idle', actions: 'reset' } },
    },
    showConfig: {
      on: {
        'config.submit': [
          { guard: 'configInvalid', actions: assign(({ context, event }) => ({ values: event.values, fieldErrors: configErrors(context.options, event.values), error: null })) },
          { target: 'submitting', actions: assign(({ event }) => ({ values: event.values, fieldErrors: {}, error: null })) },
        ],
        'config.dismiss': { target: 'idle', actions: 'reset' },
      },
    },
    submitting: {
      invoke: {
        id: 'enableProduct',
        src: 'enableProduct',
        input: ({ context }) => ({ productSlug: context.productSlug, projectId: Number(context.projectId), input: context.values }),
        onDone: { target: 'showInfo', actions: [assign({ result: ({ event }) => event.output }), 'refreshIntegrations'] },
        // The form stays as the user filled it, with the server's messages at their fields or above the form.
        onError: { target: 'showConfig', actions: assign(({ context, event }) => failure(context.productSlug, event.error)) },
      },
    },
    showInfo: {
      on: { 'config.dismiss': { target: 'idle', actions: 'reset' } },
    },
    enabling: {
      invoke: {
        id: 'enableProduct',
        src: 'enableProduct',
        input: ({ context }) => ({ productSlug: context.productSlug, projectId: Number(context.projectId), input: {} }),
        onDone: {
          target: 'enabled',
          actions: [
            assign({ result: ({ event }) => event.output }),
            'refreshIntegrations',
            { type: 'openProduct', params: ({ context }) => ({ projectSlug: context.projectSlug, productSlug: context.productSlug }) },
          ],
        },
        onError: { target: 'failed', actions: assign(({ context, event }) => ({ error: failureMessage(context.productSlug, event.error) })) },
      },
    },
    enabled: { on: { 'enable.start': start } },
    failed: { on: { 'enable.reset': { target: 'idle', actions: 'reset' } } },
  },
});

export type EnableProductMachine = typeof enableProductMachine;
