// @vitest-environment jsdom
// Model-based test of the enable-product machine (spec 001 §2 Enabling a product): every generated path is replayed
// on a real actor with the option loads and the enable call as controlled doubles, and through the enable dialog.
import { useSelector } from '@xstate/react';
import { MemoryRouter } from 'react-router';
import { expect } from 'vitest';
import { enableProductMachine } from '../../src/machines/enable-product/enable-product.machine';
import { EnableProductDialog } from '../../src/views/stack/enable-product-dialog';
import type { ConfigOptions, EnableProductResult } from '../../src/services/stack';
import { PRODUCT_ERROR_MESSAGE, SELECT_PRODUCT_MESSAGE, SELECT_PROJECT_MESSAGE, SELECT_STORAGE_MESSAGE, SELECT_WRITER_REGION_MESSAGE } from '../../contract/stack';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const opened: string[] = [];
const refreshed: number[] = [];
const machine = enableProductMachine.provide({
  actions: {
    openProduct: (_, params) => void opened.push(`/${params.projectSlug}/stack/${params.productSlug}`),
    refreshIntegrations: () => void refreshed.push(1),
  },
});

const project = { projectId: '7', projectSlug: 'acme-production-7' };
const start = (productSlug: string, where = project) => ({ type: 'enable.start' as const, productSlug, ...where });
const resources = [{ clickhouseClusterId: 'shared-eu', name: 'Shared storage', regionCode: 'eu', regionName: 'Frankfurt', continent: 'Europe', kind: 'shared' as const }];
const qrynOptions: ConfigOptions = {
  kind: 'qryn',
  resources,
  writerRegions: [{ code: 'eu', name: 'Frankfurt', continent: 'Europe' }],
  retentionPolicies: [{ id: 'ttl-30', name: 'retention-30 days', itemFamilyId: 'f', itemId: 'i', description: '', status: 'active', externalName: '', ttlDays: 30, tiers: [] }],
};
const hepicOptions: ConfigOptions = { kind: 'hepic', resources, plans: [{ id: 'plan-basic', description: 'Basic', price: 4900 }] };
const enabledResult: EnableProductResult = {
  message: 'Observability has been enabled.',
  integrationId: 12,
  items: [
    { label: 'API KEY', value: 'key-123' },
    { label: 'API SECRET', value: 'secret-456' },
  ],
  hasJsonDownload: true,
};
const VALID = { cluster_id: 'shared-eu', writer_region_code: 'eu', price_id: 'plan-basic' };
const fieldRefusal = Object.assign(new Error('Validation failed'), { details: { cluster_id: ['This storage is full.'] } });
const serverRefusal = Object.assign(new Error("grafana couldn't be enabled"), { description: 'Grafana has no back end in this installation yet.' });

const events = {
  'enable.start': [start('', { projectId: '', projectSlug: '' }), start('qryn'), start('hepic'), start('grafana'), start('nope')],
  'config.submit': [
    { type: 'config.submit', values: {} },
    { type: 'config.submit', values: VALID },
  ],
  'config.dismiss': [{ type: 'config.dismiss' }],
  'enable.reset': [{ type: 'enable.reset' }],
  'xstate.done.actor.loadConfigOptions': [
    { type: 'xstate.done.actor.loadConfigOptions', output: qrynOptions },
    { type: 'xstate.done.actor.loadConfigOptions', output: hepicOptions },
  ],
  'xstate.error.actor.loadConfigOptions': [
    { type: 'xstate.error.actor.loadConfigOptions', error: Object.assign(new Error('We encountered an error while fetching some data.'), { description: 'Please reload.' }) },
  ],
  'xstate.done.actor.enableProduct': [{ type: 'xstate.done.actor.enableProduct', output: enabledResult }],
  'xstate.error.actor.enableProduct': [
    { type: 'xstate.error.actor.enableProduct', error: fieldRefusal },
    { type: 'xstate.error.actor.enableProduct', error: serverRefusal },
  ],
} satisfies ModelEvents<typeof machine>;

const couldNotEnable = (slug: string) => `${slug} couldn't be enabled`;

const states = {
  idle: (s) => {
    expect(s.context.productSlug).toBe('');
    expect(s.context.options).toBeNull();
    expect(s.context.result).toBeNull();
  },
  invalid: (s) => expect(s.context.fieldErrors).toEqual({ productSlug: [SELECT_PRODUCT_MESSAGE], projectId: [SELECT_PROJECT_MESSAGE] }),
  loadingConfig: (s) => {
    expect(['qryn', 'hepic']).toContain(s.context.productSlug);
    expect(s.context.options).toBeNull();
  },
  showConfig: (s) => {
    expect(s.context.options).not.toBeNull();
    for (const messages of Object.values(s.context.fieldErrors)) expect(messages.length).toBeGreaterThan(0);
    if (s.context.error) expect(s.context.error.message).toBe(couldNotEnable(s.context.productSlug));
  },
  submitting: (s) => {
    expect(s.context.fieldErrors).toEqual({});
    expect(s.context.values.cluster_id).toBe('shared-eu');
  },
  showInfo: (s) => expect(s.context.result).toEqual(enabledResult),
  enabling: (s) => expect(['grafana', 'clickhouse', 'loggen']).toContain(s.context.productSlug),
  enabled: (s) => expect(opened.at(-1)).toBe(`/${project.projectSlug}/stack/${s.context.productSlug}`),
  failed: (s) => {
    const message = s.context.error?.message;
    expect(message === PRODUCT_ERROR_MESSAGE || message === couldNotEnable(s.context.productSlug)).toBe(true);
  },
} satisfies ModelStates<typeof machine>;

const PRODUCT_NAMES: Record<string, string> = { qryn: 'Observability', hepic: 'Hepic', grafana: 'Grafana', nope: 'Nope', '': '' };

/** A catalogue's add buttons (one per sample) and the enable dialog, as the add-product page shows them. */
function Harness({ actor }: { actor: Parameters<typeof EnableProductDialog>[0]['actor'] }) {
  const slug = useSelector(actor, (s) => s.context.productSlug);
  return (
    <MemoryRouter>
      {events['enable.start'].map((event) => (
        <button key={event.productSlug} type="button" onClick={() => actor.send(event)}>
          Add {event.productSlug || 'nothing'}
        </button>
      ))}
      <EnableProductDialog actor={actor} productName={PRODUCT_NAMES[slug] ?? slug} />
    </MemoryRouter>
  );
}

const dialog = (screen: ViewScreen) => screen.getByRole('dialog');
const text = (screen: ViewScreen) => dialog(screen).textContent ?? '';

const viewEvents = {
  'enable.start': ({ screen, user, event }) => user.click(screen.getByRole('button', { name: `Add ${event.productSlug || 'nothing'}` })),
  'config.submit': async ({ screen, user, event }) => {
    for (const select of screen.getAllByRole('combobox') as HTMLSelectElement[]) {
      // The form keeps what was submitted before; a sample without a field means the user cleared it.
      await user.selectOptions(select, (event.values as Record<string, string>)[select.name] ?? '');
    }
    await user.click(screen.getByRole('button', { name: /^Enable / }));
  },
  'config.dismiss': ({ screen, user, snapshot }) => {
    if (snapshot.matches('showInfo')) return user.click(screen.getByRole('button', { name: 'Done' }));
    if (snapshot.matches('showConfig')) return user.click(screen.getByRole('button', { name: 'Cancel' }));
    return user.keyboard('{Escape}');
  },
  'enable.reset': ({ screen, user }) => user.click(screen.getAllByRole('button', { name: 'Close' })[0]),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen }) => expect(screen.queryByRole('dialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  invalid: ({ screen }) => {
    expect(text(screen)).toContain(SELECT_PRODUCT_MESSAGE);
    expect(text(screen)).toContain(SELECT_PROJECT_MESSAGE);
  },
  loadingConfig: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Loading the configuration options'),
  showConfig: ({ screen, snapshot }) => {
    const form = screen.getByRole('form');
    const { fieldErrors, error, options } = snapshot.context;
    expect(screen.getByLabelText(/Storage/)).toBeTruthy();
    if (options?.kind === 'qryn') expect(screen.getByLabelText(/Writer region/)).toBeTruthy();
    else expect(screen.getByLabelText(/Pricing plan/)).toBeTruthy();
    for (const messages of Object.values(fieldErrors)) for (const message of messages) expect(form.textContent).toContain(message);
    if (fieldErrors.cluster_id?.includes(SELECT_STORAGE_MESSAGE) && options?.kind === 'qryn') expect(form.textContent).toContain(SELECT_WRITER_REGION_MESSAGE);
    if (error) expect(form.textContent).toContain(error.message);
    expect((screen.getByRole('button', { name: /^Enable / }) as HTMLButtonElement).disabled).toBe(false);
  },
  submitting: ({ screen }) => expect((screen.getByRole('button', { name: /^Enable / }) as HTMLButtonElement).disabled).toBe(true),
  showInfo: ({ screen }) => {
    expect(text(screen)).toContain('API KEY');
    expect(text(screen)).toContain('secret-456');
    expect(screen.getByRole('button', { name: 'Copy API KEY' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy API SECRET' })).toBeTruthy();
    const download = screen.getByRole('link', { name: 'Download JSON' });
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toContain('"api_key": "key-123"');
  },
  enabling: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Enabling Grafana'),
  enabled: ({ screen }) => expect(screen.queryByRole('dialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  failed: ({ screen, snapshot }) => {
    expect(screen.getByRole('alert').textContent).toContain(snapshot.context.error!.message);
    expect(screen.getByRole('alert').textContent).toContain(snapshot.context.error!.description);
  },
} satisfies ViewStates<typeof machine>;

describeModel('enable-product machine', {
  name: 'enable-product',
  machine,
  events,
  states,
  serializeContext: (c) => ({ slug: c.productSlug, kind: c.options?.kind, errors: Object.keys(c.fieldErrors), error: c.error?.message, result: Boolean(c.result) }),
  simplePaths: false,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
