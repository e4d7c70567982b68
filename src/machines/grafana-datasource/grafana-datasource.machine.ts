/**
 * Grafana datasource modal: the qryn datasources (modal=add-qryn-datasource: Loki, Prometheus and Tempo names) or a
 * ClickHouse datasource (cluster and name), spec 001 §2 Grafana, §5 Grafana.
 * States:
 * - closed       no modal
 * - editing      the modal's form, filled with the defaults; Add checks the fields here first (messages at the fields)
 * - submitting   POST integrations/grafana/datasources; the form is locked
 * - failed       the server refused: its field messages at the fields, or its reason above them; edit and add again
 * After a success the modal closes, the server's message is a success toast and the datasources are refetched.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FieldErrors } from '../../../contract/common';
import { validateDatasourceBody, type CreateDatasourceBody } from '../../../contract/grafana';
import { errorMessage } from '../error-message';

export type DatasourceForm = CreateDatasourceBody;
export type DatasourceField = 'loki_name' | 'prometheus_name' | 'tempo_name' | 'name' | 'cluster_id';

export interface GrafanaDatasourceContext {
  form: DatasourceForm | null;
  fieldErrors: FieldErrors;
  error: string | null;
}

export type GrafanaDatasourceEvent =
  | { type: 'datasource.open'; form: DatasourceForm }
  | { type: 'datasource.change'; field: DatasourceField; value: string }
  | { type: 'datasource.submit' }
  | { type: 'datasource.cancel' };

export const DATASOURCE_FAILED_MESSAGE = 'The datasource could not be added. Please try again.';

function serverFailure(error: unknown): Pick<GrafanaDatasourceContext, 'fieldErrors' | 'error'> {
  const details = (error as { details?: unknown } | null)?.details;
  if (details && typeof details === 'object' && Object.keys(details).length > 0) {
    return {
      fieldErrors: Object.fromEntries(Object.entries(details as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : [String(v)]])),
      error: null,
    };
  }
  return { fieldErrors: {}, error: errorMessage(error, DATASOURCE_FAILED_MESSAGE) };
}

const changed = (form: DatasourceForm, field: DatasourceField, value: string): DatasourceForm =>
  field === 'cluster_id' ? { ...form, cluster_id: value === '' ? null : Number(value) } : { ...form, [field]: value };

const edit = { 'datasource.change': { actions: 'applyChange' } } as const;

export const grafanaDatasourceMachine = setup({
  types: {
    context: {} as GrafanaDatasourceContext,
    events: {} as GrafanaDatasourceEvent,
  },
  actors: {
    createDatasource: fromPromise<{ message: string }, { form: DatasourceForm }>(async () => {
      throw new Error('createDatasource is provided where the actor is created');
    }),
  },
  guards: {
    formValid: ({ context }) => Object.keys(validateDatasourceBody(context.form!)).length === 0,
  },
  actions: {
    applyChange: assign(({ context, event }) => {
      if (event.type !== 'datasource.change') return {};
      // The message of the field being fixed goes; the others stay until the next Add.
      const { [event.field]: _gone, ...rest } = context.fieldErrors;
      return { form: changed(context.form!, event.field, event.value), fieldErrors: rest };
    }),
    notifyCreated: (_, _params: { message: string }) => undefined,
    refreshDatasources: () => undefined,
  },
}).createMachine({
  id: 'grafanaDatasource',
  context: { form: null, fieldErrors: {}, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'datasource.open': { target: 'editing', actions: assign({ form: ({ event }) => event.form, fieldErrors: {}, error: null }) } },
    },
    editing: {
      on: {
        ...edit,
        'datasource.submit': [
          { guard: 'formValid', target: 'submitting', actions: assign({ fieldErrors: {}, error: null }) },
          { actions: assign({ fieldErrors: ({ context }) => validateDatasourceBody(context.form!) }) },
        ],
        'datasource.cancel': { target: 'closed', actions: assign({ form: null, fieldErrors: {}, error: null }) },
      },
    },
    submitting: {
      invoke: {
        id: 'createDatasource',
        src: 'createDatasource',
        input: ({ context }) => ({ form: context.form! }),
        onDone: {
          target: 'closed',
          actions: [{ type: 'notifyCreated', params: ({ event }) => ({ message: event.output.message }) }, 'refreshDatasources', assign({ form: null })],
        },
        onError: { target: 'failed', actions: assign(({ event }) => serverFailure(event.error)) },
      },
    },
    failed: {
      on: {
        ...edit,
        'datasource.submit': [
          { guard: 'formValid', target: 'submitting', actions: assign({ fieldErrors: {}, error: null }) },
          { target: 'editing', actions: assign({ fieldErrors: ({ context }) => validateDatasourceBody(context.form!), error: null }) },
        ],
        'datasource.cancel': { target: 'closed', actions: assign({ form: null, fieldErrors: {}, error: null }) },
      },
    },
  },
});

export type GrafanaDatasourceMachine = typeof grafanaDatasourceMachine;
