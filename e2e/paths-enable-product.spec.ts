// The enable-product machine's generated paths walked in the browser (e2e/model-walk.ts): the catalogue at
// /{project}/stack/add as the demo owner in Acme, its add buttons and the enable dialog (show-config, show-info, the
// progress and errors of a product enabled directly). A path that really enables a product gets a fresh project (a
// product enabled once offers no add button again); the others share one project in which nothing is ever enabled.
// The option loads and the enable call are held while their waiting state is checked; the real server answers them,
// or the gate answers what a browser cannot make it say (a failed read, a storage that is full, a refused product).
import type { AnyEventObject } from 'xstate';
import { PRODUCT_ERROR_MESSAGE, SELECT_PRICING_PLAN_MESSAGE, SELECT_STORAGE_MESSAGE, SELECT_WRITER_REGION_MESSAGE, productNotEnabledMessage } from '../contract/stack';
import { enableProductMachine } from '../src/machines/enable-product/enable-product.machine';
import { SAMPLE_LOAD_FAILURE, SAMPLE_UNKNOWN_PRODUCT, enableProductSamples } from '../src/machines/enable-product/enable-product.samples';
import type { ConfigOptions } from '../src/services/stack';
import { freshAcmeProject } from './acme-session';
import { expect } from './fixtures';
import { describeBrowserModel, type WalkContext } from './model-walk';
import type { RequestGate } from './request-gate';
import { ownerWalkPage } from './walk-page';
import { VALIDATION_ERROR_MESSAGE } from '../contract/validation-error';

const gated = {
  // Qryn's and Hepic's show-config options: the storage places are read with the writer regions, retention plans or
  // pricing plans; holding that one read holds the step.
  options: { method: 'GET', path: /\/integrations\/(qryn|hepic)\/cloud\/resources\/?$/ },
  enable: { method: 'POST', path: /^\/api\/integrations\/[a-z]+\/?$/ },
  // The catalogue, held only for a path that needs a product this console has no flow for.
  catalogue: { method: 'GET', path: /^\/api\/products\/?$/, armLater: true },
} as const;

/** What a person reads on the catalogue's cards and buttons. */
const PRODUCT_NAMES: Record<string, string> = { qryn: 'Observability', hepic: 'Hepic', grafana: 'Grafana', [SAMPLE_UNKNOWN_PRODUCT]: 'Nope' };

interface World {
  gate: RequestGate<keyof typeof gated>;
  projectSlug: string;
  /** The product whose add button was pressed last. */
  product: string;
  /** The leaf state the page showed last: a person closes each screen with its own control. */
  at: string;
  /** The messages the show-config form shows at its fields. */
  fieldErrors: string[];
  /** The refusal shown above the form or in the dialog. */
  error: { message: string; description: string } | null;
  /** Products this path really enabled in its project. */
  enabled: Set<string>;
}
type Walk = WalkContext<World>;

const walkPage = ownerWalkPage(gated);
// The project of the paths that enable nothing (the gate refuses, or the dialog is dismissed first).
let untouched: { slug: string } | undefined;

/** The server's catalogue with one more product, as a newer catalogue would list it. */
const withUnknownProduct = (body: unknown) => [
  ...(body as unknown[]),
  { id: 999, name: PRODUCT_NAMES[SAMPLE_UNKNOWN_PRODUCT], slug: SAMPLE_UNKNOWN_PRODUCT, description: 'A product newer than this console.', is_available: true, tags: [], dependencies: [] },
];

const nameOf = (walk: Walk) => PRODUCT_NAMES[walk.world.product];
const dialog = (walk: Walk) => walk.page.getByRole('dialog');
const configForm = (walk: Walk) => walk.page.getByRole('form', { name: `Configure ${nameOf(walk)}` });
const addButton = (walk: Walk, slug: string) =>
  walk.page.getByRole('listitem', { name: PRODUCT_NAMES[slug], exact: true }).getByRole('button', { name: `Add ${PRODUCT_NAMES[slug]} to this project` });
const startOf = (event: AnyEventObject) => event as unknown as { productSlug: string };

/** The messages the form's own check gives for a show-config submitted with nothing chosen. */
const emptyFormErrors = (product: string) =>
  product === 'qryn' ? [SELECT_STORAGE_MESSAGE, SELECT_WRITER_REGION_MESSAGE] : [SELECT_PRICING_PLAN_MESSAGE, SELECT_STORAGE_MESSAGE];

describeBrowserModel('enable product: generated paths in the browser', {
  name: 'enable-product',
  machine: enableProductMachine,
  samples: enableProductSamples,
  async open({ browser, baseURL, path }) {
    const { page, session, gate } = await walkPage.open(browser, baseURL);
    const enables = path.steps.some((step) => step.event.type === 'xstate.done.actor.enableProduct');
    const project = enables ? await freshAcmeProject(session, 'Enable walk') : (untouched ??= await freshAcmeProject(session, 'Enable walk'));
    const unknownProduct = path.steps.some((step) => step.event.type === 'enable.start' && startOf(step.event).productSlug === SAMPLE_UNKNOWN_PRODUCT);
    if (unknownProduct) gate.arm('catalogue');
    await page.goto(`/${project.slug}/stack/add`);
    if (unknownProduct) await gate.serve('catalogue', withUnknownProduct);
    // A full load (sign-in restored, Acme chosen, the catalogue and the project's integrations read) comes first.
    await expect(page.getByRole('list', { name: 'Products' })).toBeVisible({ timeout: 30_000 });
    const world: World = { gate, projectSlug: project.slug, product: '', at: 'idle', fieldErrors: [], error: null, enabled: new Set() };
    return { page, world, close: async () => undefined };
  },
  finish: () => walkPage.finish(),
  states: {
    idle: async (walk) => {
      walk.world.at = 'idle';
      await expect(dialog(walk)).toHaveCount(0);
      for (const slug of walk.world.enabled) {
        const card = walk.page.getByRole('listitem', { name: PRODUCT_NAMES[slug], exact: true });
        await expect(card.getByRole('link', { name: `Open ${PRODUCT_NAMES[slug]}` })).toBeVisible();
      }
      for (const slug of Object.keys(PRODUCT_NAMES)) {
        const button = addButton(walk, slug);
        if (!walk.world.enabled.has(slug) && (await button.count())) await expect(button).toBeEnabled();
      }
    },
    invalid: {
      unreachable:
        "the catalogue's add buttons always name a product and the current project: a browser cannot start the flow " +
        "with an incomplete form ('Please select a product', 'Please select a project')",
    },
    loadingConfig: async (walk) => {
      walk.world.at = 'loadingConfig';
      await walk.world.gate.waitFor('options');
      await expect(dialog(walk)).toHaveAccessibleName(`Add ${nameOf(walk)}`);
      await expect(dialog(walk).getByRole('status')).toHaveText('Loading the configuration options');
    },
    showConfig: async (walk) => {
      walk.world.at = 'showConfig';
      const form = configForm(walk);
      await expect(form).toBeVisible();
      // The options are the server's: its storage places and, per product, the writer regions or pricing plans.
      await expect(form.getByLabel(/^Storage/).locator('option')).not.toHaveCount(1);
      if (walk.world.product === 'qryn') {
        await expect(form.getByLabel(/^Writer region/).locator('option')).not.toHaveCount(1);
        await expect(form.getByLabel(/^Retention plan/)).toBeVisible();
      } else {
        await expect(form.getByLabel(/^Pricing plan/).locator('option')).not.toHaveCount(1);
      }
      for (const message of walk.world.fieldErrors) await expect(form).toContainText(message);
      if (walk.world.fieldErrors.length === 0) await expect(form.getByText(/^Please select/)).toHaveCount(0);
      if (walk.world.error) {
        await expect(form.getByRole('alert')).toContainText(walk.world.error.message);
        await expect(form.getByRole('alert')).toContainText(walk.world.error.description);
      } else {
        await expect(form.getByRole('alert')).toHaveCount(0);
      }
      await expect(form.getByRole('button', { name: `Enable ${nameOf(walk)}` })).toBeEnabled();
    },
    submitting: async (walk) => {
      walk.world.at = 'submitting';
      await walk.world.gate.waitFor('enable');
      const form = configForm(walk);
      await expect(form.getByRole('button', { name: `Enable ${nameOf(walk)}` })).toBeDisabled();
      await expect(form.getByRole('button', { name: 'Cancel' })).toBeDisabled();
      await expect(form.getByLabel(/^Storage/)).toBeDisabled();
    },
    showInfo: async (walk) => {
      walk.world.at = 'showInfo';
      const info = walk.page.getByRole('dialog', { name: `${nameOf(walk)} is enabled` });
      await expect(info).toContainText('Keep these values: the secret is shown only now.');
      if (walk.world.product === 'qryn') {
        await expect(info.getByRole('button', { name: 'Copy API KEY' })).toBeVisible();
        await expect(info.getByRole('button', { name: 'Copy API SECRET' })).toBeVisible();
        // The download holds the keys the server made for this project's instance.
        await expect(info.getByRole('link', { name: 'Download JSON' })).toHaveAttribute('href', /%22api_secret%22/);
      } else {
        await expect(info.getByRole('button', { name: 'Copy HEP Endpoint' })).toBeVisible();
      }
      await expect(info.getByRole('link', { name: `Open ${nameOf(walk)}` })).toBeVisible();
    },
    enabling: async (walk) => {
      walk.world.at = 'enabling';
      await walk.world.gate.waitFor('enable');
      await expect(dialog(walk).getByRole('status')).toHaveText(`Enabling ${nameOf(walk)}`);
    },
    enabled: async (walk) => {
      walk.world.at = 'enabled';
      // The product's own pages replace the catalogue.
      await expect(walk.page).toHaveURL(new RegExp(`/${walk.world.projectSlug}/stack/${walk.world.product}$`));
      await expect(walk.page.getByRole('heading', { level: 1, name: nameOf(walk) })).toBeVisible();
    },
    failed: async (walk) => {
      walk.world.at = 'failed';
      const alert = dialog(walk).getByRole('alert');
      await expect(alert).toContainText(walk.world.error!.message);
      await expect(alert).toContainText(walk.world.error!.description);
      await expect(dialog(walk).getByRole('button', { name: 'Close' }).first()).toBeEnabled();
    },
  },
  events: {
    'enable.start': {
      perform: async (walk, event) => {
        const { productSlug } = startOf(event);
        walk.world.product = productSlug;
        walk.world.fieldErrors = [];
        walk.world.error =
          productSlug === SAMPLE_UNKNOWN_PRODUCT ? { message: PRODUCT_ERROR_MESSAGE, description: `"${productSlug}" cannot be added to a project from here.` } : null;
        await addButton(walk, productSlug).click();
      },
      // `enabled` opens the product's pages: the catalogue and its actor are gone. Back on the catalogue a new actor
      // starts in idle.
      unreachableSample: (_event, from) =>
        from.matches('enabled')
          ? "once a product is enabled directly the console opens its pages, which stops the catalogue's actor: a start from 'enabled' is a new actor's start from 'idle'"
          : undefined,
    },
    'config.submit': {
      perform: async (walk, event) => {
        const values = (event as unknown as { values: Record<string, string> }).values;
        const form = configForm(walk);
        // The sample's ids stand for a valid choice among the server's options (its first one); a field the sample
        // leaves out is left at its empty choice.
        for (const select of await form.getByRole('combobox').all()) {
          const name = (await select.getAttribute('name'))!;
          await select.selectOption(values[name] === undefined ? '' : { index: 1 });
        }
        walk.world.fieldErrors = Object.keys(values).length === 0 ? emptyFormErrors(walk.world.product) : [];
        walk.world.error = null;
        await form.getByRole('button', { name: `Enable ${nameOf(walk)}` }).click();
      },
    },
    'config.dismiss': {
      perform: async (walk) => {
        walk.world.fieldErrors = [];
        walk.world.error = null;
        if (walk.world.at === 'showInfo') return dialog(walk).getByRole('button', { name: 'Done' }).click();
        if (walk.world.at === 'showConfig') return configForm(walk).getByRole('button', { name: 'Cancel' }).click();
        // While the options load there is no form yet: the dialog closes with Escape. The read it leaves is answered
        // (nobody listens to it any more), so that a later start holds its own.
        await walk.page.keyboard.press('Escape');
        await expect(dialog(walk)).toHaveCount(0);
        await walk.world.gate.release('options');
      },
    },
    'enable.reset': {
      perform: async (walk) => {
        walk.world.error = null;
        await dialog(walk).getByRole('button', { name: 'Close' }).first().click();
      },
    },
    'xstate.done.actor.loadConfigOptions': {
      perform: (walk) => walk.world.gate.release('options'),
      unreachableSample: (event, from) => {
        const kind = (event as unknown as { output: ConfigOptions }).output.kind;
        return kind === from.context.productSlug
          ? undefined
          : `the console reads the options of the product whose button was pressed: ${from.context.productSlug} is not offered ${kind}'s form`;
      },
    },
    'xstate.error.actor.loadConfigOptions': {
      perform: async (walk) => {
        walk.world.error = { message: productNotEnabledMessage(walk.world.product), description: SAMPLE_LOAD_FAILURE.description };
        await walk.world.gate.answer('options', 500, { error: SAMPLE_LOAD_FAILURE.message, description: SAMPLE_LOAD_FAILURE.description });
      },
    },
    'xstate.done.actor.enableProduct': {
      perform: async (walk) => {
        walk.world.enabled.add(walk.world.product);
        await walk.world.gate.release('enable');
      },
    },
    // What a browser cannot make the server say on demand: a storage that is full (400 at its field), or a refusal
    // of the product (400 with the server's description).
    'xstate.error.actor.enableProduct': {
      perform: async (walk, event) => {
        const error = (event as unknown as { error: { message: string; details?: Record<string, string[]>; description?: string } }).error;
        const couldNotEnable = productNotEnabledMessage(walk.world.product);
        if (error.details) {
          const messages = Object.values(error.details).flat();
          // The form puts the messages at their fields; with no form (a product enabled directly) they are the
          // refusal's description.
          walk.world.fieldErrors = walk.world.at === 'submitting' ? messages : [];
          walk.world.error = walk.world.at === 'submitting' ? null : { message: couldNotEnable, description: messages.join(' ') };
          // The integrations' field refusal (spec 001 §8): 400 with the fields, and the enable answer's own fields.
          await walk.world.gate.answer('enable', 400, { message: VALIDATION_ERROR_MESSAGE, description: 'Some fields are not valid.', details: error.details, product: walk.world.product, enabled: false, step: 'show-config', errors: error.details });
        } else {
          walk.world.fieldErrors = [];
          walk.world.error = { message: couldNotEnable, description: error.description! };
          await walk.world.gate.answer('enable', 400, { error: error.message, description: error.description });
        }
      },
    },
  },
});
