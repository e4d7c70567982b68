// @vitest-environment jsdom
// Model-based test of the enable-product machine (spec 001 §2 Enabling a product): every generated path is replayed
// on a real actor with the option loads and the enable call as controlled doubles, and through the enable dialog.
import { useSelector } from '@xstate/react';
import { MemoryRouter } from 'react-router';
import { expect } from 'vitest';
import { enableProductMachine } from '../../src/machines/enable-product/enable-product.machine';
import { EnableProductDialog } from '../../src/views/stack/enable-product-dialog';
import { SAMPLE_ENABLED_RESULT, SAMPLE_PROJECT, SAMPLE_VALID_CONFIG, enableProductEvents, serializeEnableProductContext } from '../../src/machines/enable-product/enable-product.samples';
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

const project = SAMPLE_PROJECT;
// The same samples the browser walk and the statechart studio play.
const events = enableProductEvents satisfies ModelEvents<typeof machine>;

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
    expect(s.context.values.cluster_id).toBe(SAMPLE_VALID_CONFIG.cluster_id);
  },
  showInfo: (s) => expect(s.context.result).toEqual(SAMPLE_ENABLED_RESULT),
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
  serializeContext: serializeEnableProductContext,
  simplePaths: false,
  view: { render: (actor) => <Harness actor={actor} />, events: viewEvents, states: viewStates },
});
