import { ProjectIdQuery } from '../../contract/common';
import { type Integration } from '../../contract/integrations';
import type { Product, UserProduct } from '../../contract/products';
import { projectSlug } from '../../contract/projects';
import { PRODUCT_ERROR_MESSAGE, SELECT_PRODUCT_MESSAGE, SELECT_PROJECT_MESSAGE, productNotEnabledMessage, type EnableProductResponse } from '../../contract/stack';
import {
  addIntegrationUser,
  findSubscription,
  hasLiveIntegration,
  listOrganizationSubscriptions,
  moveSubscription,
  recordEnabledIntegration,
  findProjectIntegration,
  listIntegrationsOfProjects,
  listProducts,
  listProjectIntegrations,
  type IntegrationRow,
  type ProductRow,
} from '../db/repositories/integrations-repository';
import { listVisibleProjects, type ProjectRow } from '../db/repositories/projects-repository';
import { cancellationDate, DAY_MS, TRIAL_DAYS } from './subscription-lifecycle';
import type { EnableRequest, ProductBackend } from '../route-kit/product-backend';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../route-kit/caller';
import { ApiError, badRequest, conflict, decodeOrThrow, readBody, sendJson, ValidationError } from '../route-kit/http';
import { VALIDATION_ERROR_MESSAGE } from '../../contract/validation-error';
import { visibleProjectOr404 } from '../route-kit/project-access';

// Products whose screens are open only to the people on the integration's user list.
const LISTED_USERS_ONLY = new Set(['hepic', 'grafana']);

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  is_available: row.is_available,
  tags: row.tags,
  dependencies: row.dependencies,
});

function toIntegration(row: IntegrationRow, product: ProductRow): Integration {
  const creatorName = row.creator_id ? `${row.creator_given_name ?? ''} ${row.creator_family_name ?? ''}`.trim() || (row.creator_email ?? '') : '';
  const usable = row.status === 'active' || row.status === 'trial' || row.status === 'scheduled_for_cancellation';
  return {
    id: row.id,
    project_id: row.project_id,
    created_at: row.created_at.toISOString(),
    creator_name: creatorName,
    status: row.status as Integration['status'],
    product: toProduct(product),
    user: row.creator_id
      ? { id: row.creator_id, given_name: row.creator_given_name ?? '', family_name: row.creator_family_name ?? '', email: row.creator_email ?? '' }
      : null,
    is_user_active: row.is_user_listed,
    is_available: usable && (!LISTED_USERS_ONLY.has(row.product_slug) || row.is_user_listed),
  };
}

/** The project of a `?project_id` call, checked visible to the caller (404 otherwise) in the caller's mode. */
async function scopedProject(ctx: ApiContext, caller: Caller, query: Record<string, string>) {
  const { project_id } = decodeOrThrow(ProjectIdQuery, query);
  if (caller.organizationId !== null) await requireOrganization(caller);
  return visibleProjectOr404(ctx, caller, project_id);
}

const notEnabled = (slug: string, projectId: number) => badRequest(`${slug} is not enabled for project ${projectId}`, 'Enable it from the stack page first.');

export function registerIntegrationRoutes(router: ApiRouter, ctx: ApiContext): void {
  // The catalogue changes only with a migration, so it is read once per process.
  let catalogue: Promise<ProductRow[]> | undefined;
  const products = () => (catalogue ??= listProducts(ctx.db).catch((error) => {
    catalogue = undefined;
    throw error;
  }));

  async function integrationOf(caller: Caller, query: Record<string, string>, slug: string) {
    const project = await scopedProject(ctx, caller, query);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, slug);
    if (!integration) throw notEnabled(slug, project.id);
    return integration;
  }

  router.add('GET', 'products', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, (await products()).map(toProduct));
  });

  router.add('GET', 'users/products', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    if (caller.organizationId !== null) await requireOrganization(caller);
    const projects = await listVisibleProjects(ctx.db, caller);
    const byId = new Map(projects.map((p) => [p.id, p]));
    const enabled = await listIntegrationsOfProjects(ctx.db, projects.map((p) => p.id));
    const result: UserProduct[] = [];
    for (const product of await products()) {
      const uses = enabled.filter((e) => e.product_slug === product.slug);
      if (uses.length === 0) continue;
      result.push({
        ...toProduct(product),
        projects: uses.map((e) => {
          const p = byId.get(e.project_id)!;
          return { id: p.id, name: p.name, slug: projectSlug(p.name, p.id), status: e.status };
        }),
      });
    }
    sendJson(res, 200, result);
  });

  router.add('GET', 'integrations', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const project = await scopedProject(ctx, caller, query);
    const catalogueBySlug = new Map((await products()).map((p) => [p.slug, p]));
    const rows = await listProjectIntegrations(ctx.db, caller.userId, project.id);
    sendJson(res, 200, rows.map((row) => toIntegration(row, catalogueBySlug.get(row.product_slug)!)));
  });

  router.add('GET', 'integrations/status', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, await ctx.services.report(await products()));
  });

  router.add('GET', 'integrations/:integration/trial', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const integration = await integrationOf(caller, query, params.integration);
    const endsAt = integration.status === 'trial' ? integration.trial_ends_at : null;
    const remaining = endsAt ? Math.max(0, Math.ceil((endsAt.getTime() - ctx.clock.nowMs()) / DAY_MS)) : 0;
    sendJson(res, 200, { remaining_days: remaining });
  });

  router.add('GET', 'integrations/:integration/cancellation', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const integration = await integrationOf(caller, query, params.integration);
    const at = integration.status === 'scheduled_for_cancellation' ? integration.cancellation_at : null;
    sendJson(res, 200, { cancellation_date_timestamp: at ? Math.floor(at.getTime() / 1000) : null });
  });
}

/**
 * Enables a product in a project: records the integration (a 14-day trial; a cancelled one starts again) and asks
 * the product's back end to create what the project gets, in one transaction, so a refusal of the back end (422 per
 * field for a bad show-config input) leaves nothing behind. Exported for a product that registers its own
 * POST integrations/<slug>/ and still wants this bookkeeping.
 */
export async function enableIntegration(
  ctx: ApiContext,
  caller: Caller,
  project: ProjectRow,
  slug: string,
  input: Record<string, unknown>,
): Promise<EnableProductResponse> {
  const catalogue = await listProducts(ctx.db);
  const product = catalogue.find((p) => p.slug === slug);
  if (!product) throw badRequest(PRODUCT_ERROR_MESSAGE, `There is no product "${slug}" in the catalogue.`);
  if (!product.is_available) throw badRequest(productNotEnabledMessage(slug), `${product.name} is not available at the moment.`);
  const backend = ctx.products.get(slug);
  if (!backend) throw badRequest(productNotEnabledMessage(slug), `${product.name} has no back end in this installation yet.`);
  for (const dependency of product.dependencies) {
    if (!(await hasLiveIntegration(ctx.db, project.id, dependency))) {
      const needed = catalogue.find((p) => p.slug === dependency)?.name ?? dependency;
      throw badRequest(productNotEnabledMessage(slug), `${product.name} needs ${needed} (${dependency}). Enable ${needed} in this project first.`);
    }
  }
  // Work that reaches other servers (a storage's DDL) runs before the transaction opens: the embedded database
  // serves one transaction at a time, and a slow or paused server inside it held every request of the platform.
  // An integration that is already live is refused first, so no remote work is done for it.
  if (backend.prepareEnable && (await hasLiveIntegration(ctx.db, project.id, slug))) {
    throw conflict(`${product.name} is already enabled`, `${product.name} is already enabled in this project.`);
  }
  const base = { projectId: project.id, userId: caller.userId, organizationId: caller.organizationId, input };
  const prepared = await backend.prepareEnable?.(base);
  try {
    return await recordEnable(ctx, caller, project, slug, product.name, backend, { ...base, prepared: prepared?.state });
  } catch (error) {
    // Nothing was recorded: what the preparation created remotely goes too (best effort; docs/architecture.md).
    await prepared?.undo().catch(() => undefined);
    throw error;
  }
}

async function recordEnable(
  ctx: ApiContext,
  caller: Caller,
  project: ProjectRow,
  slug: string,
  productName: string,
  backend: ProductBackend,
  request: Omit<EnableRequest, 'integrationId'>,
): Promise<EnableProductResponse> {
  const product = { name: productName };
  const input = request.input;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const integrationId = await recordEnabledIntegration(tx, {
      projectId: project.id,
      productSlug: slug,
      creatorUserId: caller.userId,
      now,
      trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    });
    if (integrationId === undefined) throw conflict(`${product.name} is already enabled`, `${product.name} is already enabled in this project.`);
    // Whoever enables a product with a user list is its first admin, so the card is theirs to open.
    if (LISTED_USERS_ONLY.has(slug)) await addIntegrationUser(tx, integrationId, caller.userId, 'admin');
    const result = await backend.enable(tx, { integrationId, ...request, input });
    const items = result.items ?? [];
    const apiKey = items.find((item) => item.label === 'API KEY')?.value;
    const apiSecret = items.find((item) => item.label === 'API SECRET')?.value;
    return {
      message: `${product.name} has been enabled.`,
      product: slug,
      enabled: true,
      step: 'show-info' as const,
      errors: {},
      integration_id: integrationId,
      items,
      has_json_download: result.hasJsonDownload ?? false,
      ...(apiKey !== undefined ? { api_key: apiKey } : {}),
      ...(apiSecret !== undefined ? { api_secret: apiSecret } : {}),
    };
  });
}

/**
 * Runs an enable; a refusal of the show-config fields also carries the spec's enable-response fields (spec 001 §3:
 * product, enabled, step, errors), so the form knows it stays at show-config with these messages. Exported for a
 * product that answers its own POST integrations/<slug>/.
 */
export async function withEnableStep<T>(slug: string, enable: () => Promise<T>): Promise<T> {
  try {
    return await enable();
  } catch (error) {
    if (error instanceof ApiError && error.message === VALIDATION_ERROR_MESSAGE && typeof error.extra.details === 'object') {
      throw new ApiError(error.status, error.message, error.description, {
        ...error.extra,
        product: slug,
        enabled: false,
        step: 'show-config',
        errors: error.extra.details,
      });
    }
    throw error;
  }
}

/**
 * The stack's write calls. Registered after the products' own routes (api-handler.ts): the router takes the first
 * route that matches, so a product that registers POST integrations/<slug>/ itself answers it, and one that only
 * implements enable() gets this generic call.
 */
export function registerIntegrationWriteRoutes(router: ApiRouter, ctx: ApiContext): void {
  // The enable form's two fields (spec 001 §5 Generic): a call without them gets the form's own texts at the field,
  // not the generic shape refusal every other project-scoped call answers.
  router.add('POST', 'integrations', async (_request, scope) => {
    requireCaller(await scope.caller());
    throw new ValidationError({ productSlug: [SELECT_PRODUCT_MESSAGE] });
  });
  router.add('POST', 'integrations/:integration', async ({ req, res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    if (params.integration.trim() === '') throw new ValidationError({ productSlug: [SELECT_PRODUCT_MESSAGE] });
    if ((query.project_id ?? '').trim() === '') throw new ValidationError({ project_id: [SELECT_PROJECT_MESSAGE] });
    const input = await readBody(req);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw badRequest('Invalid request', 'The body must be a JSON object: the configuration fields of the product, or {}.');
    }
    const project = await scopedProject(ctx, caller, query);
    await requireWritable(caller);
    sendJson(res, 201, await withEnableStep(params.integration, () => enableIntegration(ctx, caller, project, params.integration, input as Record<string, unknown>)));
  });

  router.add('POST', 'integrations/:integration/cancel', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const project = await scopedProject(ctx, caller, query);
    await requireWritable(caller);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, params.integration);
    if (!integration) throw notEnabled(params.integration, project.id);
    if (integration.status === 'cancelled_by_user' || integration.status === 'scheduled_for_cancellation') {
      throw conflict('Already cancelled', `The subscription of ${params.integration} is already ${integration.status === 'cancelled_by_user' ? 'cancelled' : 'scheduled for cancellation'}.`);
    }
    // Grafana is one subscription for the whole organization (spec 001 §4): cancelling it cancels it everywhere.
    const targets =
      params.integration === 'grafana' && project.organization_id !== null
        ? await listOrganizationSubscriptions(ctx.db, project.organization_id, 'grafana')
        : [(await findSubscription(ctx.db, integration.id))!];
    const now = ctx.clock.now();
    const dates = await ctx.db.transaction(async (tx) => {
      const scheduled: { integration_id: number; project_id: number; cancellation_date_timestamp: number }[] = [];
      for (const target of targets) {
        const at = cancellationDate(target, now);
        if (await moveSubscription(tx, target.id, target.status, { status: 'scheduled_for_cancellation', now, cancellationAt: at })) {
          scheduled.push({ integration_id: target.id, project_id: target.project_id, cancellation_date_timestamp: Math.floor(at.getTime() / 1000) });
        }
      }
      return scheduled;
    });
    const own = dates.find((d) => d.integration_id === integration.id);
    if (!own) throw conflict('Already cancelled', 'The subscription changed meanwhile. Reload the page to see its status.');
    sendJson(res, 200, {
      message: 'Your subscription has been cancelled. It stays available until the end of the current period.',
      cancellation_date_timestamp: own.cancellation_date_timestamp,
      cancelled: dates,
    });
  });
}
