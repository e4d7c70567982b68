import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_READ_CACHE_MS, type PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import type { AccessTokenVerifier } from '../identity/verify-access-token';
import { createPaymentProvider } from '../adapters/payments/create-payment-provider';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import type { ApiContext, RequestScope } from '../route-kit/api-context';
import { registerBillingRoutes } from './billing-routes';
import type { Caller } from '../route-kit/caller';
import { createCallerResolver } from './caller-resolver';
import { ApiError, containsNul, MAX_BODY_BYTES, nulRefused, preReadBody, sendJson } from '../route-kit/http';
import { describeErrorForLog } from '../safe-error-log';
import { VALIDATION_ERROR_MESSAGE } from '../../contract/validation-error';
import { registerIntegrationRoutes, registerIntegrationWriteRoutes } from './integration-routes';
import { registerOrganizationRoutes } from './organization-routes';
import { registerLocalPaymentRoutes } from './payment-routes';
import { registerProjectRoutes } from './project-routes';
import { Router, parseQuery } from '../route-kit/router';
import { createServiceRegistry } from './service-status';
import type { ServiceRegistry } from '../route-kit/service-registry';
import { createReadCache } from './read-cache';
import { registerTelemetryRoutes } from './telemetry-routes';
import { registerUserRoutes } from './user-routes';
import { createClock, type Clock } from '../clock';
import { registerInvoiceRoutes, registerLocalInvoicePayRoutes } from './invoice-routes';
import type { JobQueue } from '../jobs/job-queue';
import type { ProductBackends } from '../route-kit/product-backend';
import { createJobQueue } from '../jobs/job-queue';

export interface ApiDependencies {
  db: Database;
  config: PlatformConfig;
  verifyAccessToken: AccessTokenVerifier;
  mailer: Mailer;
  /** Defaults to the provider the config selects (hosted with a secret key, local otherwise). */
  payments?: PaymentProvider;
  /** Defaults to the platform's own checks; product back ends register theirs on it. */
  services?: ServiceRegistry;
  /** How long a read may be reused while nothing is written (embedded database only). Defaults to config.readCacheMs (READ_CACHE). */
  readCacheMs?: number;
  /** Defaults to the wall clock. */
  clock?: Clock;
  /** Defaults to a queue that is not started (nothing runs jobs). */
  jobs?: JobQueue;
  /** The installed product back ends (server/platform.ts gives its registry). Defaults to none. */
  products?: ProductBackends;
}

// PostgreSQL codes that can only come from input the schemas let through (e.g. a value out of a column's range):
// they are the client's problem, never a 500.
// 22021/22P05: a NUL or otherwise unstorable character that got past the checks below.
const CLIENT_SQL_ERRORS = new Set(['22P02', '22003', '22001', '22007', '22008', '22021', '22P05']);
// Every body is read before routing, so NUL bytes and oversize bodies are refused alike on every route. The largest
// limit of any route (telemetry batches take less); readBody applies each route's own limit to what was read.
const PRE_READ_LIMIT = MAX_BODY_BYTES;

/** Handles every request whose path starts with config.apiBasePath. */
export function createApiHandler(deps: ApiDependencies) {
  const readCacheMs = deps.readCacheMs ?? deps.config.readCacheMs ?? DEFAULT_READ_CACHE_MS;
  const reads = createReadCache({ enabled: deps.db.kind === 'pglite' && readCacheMs > 0, maxAgeMs: readCacheMs });
  const ctx: ApiContext = {
    db: deps.db,
    config: deps.config,
    mailer: deps.mailer,
    payments: deps.payments ?? createPaymentProvider(deps.db, deps.config),
    // The ended-sign-in check and the membership: one statement per request (shared by the read cache until the
    // next write, at most its max age).
    callers: createCallerResolver(deps.verifyAccessToken, { share: (key, compute) => reads.share(key, compute) }),
    services: deps.services ?? createServiceRegistry(deps.db),
    reads,
    clock: deps.clock ?? createClock(),
    jobs: deps.jobs ?? createJobQueue(deps.db),
    products: deps.products ?? { get: () => undefined, all: () => [] },
  };
  const router = new Router<RequestScope>();
  registerBillingRoutes(router, ctx);
  registerOrganizationRoutes(router, ctx);
  registerProjectRoutes(router, ctx);
  registerUserRoutes(router, ctx);
  // The integrations' calls (spec 001) answer field messages with 400, the account area's (spec 000) with 422.
  const productRouter = router.withDefaults({ fieldErrorStatus: 400 });
  registerIntegrationRoutes(productRouter, ctx);
  registerTelemetryRoutes(router, ctx);
  if (ctx.payments.kind === 'local') registerLocalPaymentRoutes(router, ctx);
  registerInvoiceRoutes(router, ctx);
  if (ctx.payments.kind === 'local') registerLocalInvoicePayRoutes(router, ctx);
  for (const product of ctx.products.all()) product.registerRoutes?.(productRouter, ctx);
  // After the products: a product's own POST integrations/<slug>/ wins over the generic enable call.
  registerIntegrationWriteRoutes(productRouter, ctx);

  const base = deps.config.apiBasePath.replace(/\/$/, '');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? '/', 'http://api.invalid');
      if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) {
        throw new ApiError(404, 'Not found', `There is no API call at ${url.pathname}.`);
      }
      const path = url.pathname.slice(base.length);
      const method = (req.method ?? 'GET').toUpperCase();
      const match = router.match(method, path);
      if (match.kind === 'not-found') throw new ApiError(404, 'Not found', `There is no API call at ${url.pathname}.`);
      if (match.kind === 'method-not-allowed') {
        throw new ApiError(405, 'Method not allowed', `${url.pathname} accepts ${match.allowed.join(', ')}.`, {}, );
      }
      let decodedSearch: string;
      try {
        decodedSearch = decodeURIComponent(url.search.replace(/\+/g, ' ')) + decodeURIComponent(url.pathname);
      } catch {
        throw new ApiError(400, 'Invalid request', 'The address is not correctly encoded.');
      }
      if (decodedSearch.includes('\u0000')) throw nulRefused();
      if (method !== 'GET' && method !== 'HEAD') {
        const raw = await preReadBody(req, PRE_READ_LIMIT);
        if (raw.includes(0) || (raw.length > 0 && bodyHasNul(raw.toString('utf8')))) throw nulRefused();
      }
      let caller: Promise<Caller | null> | undefined;
      const scope: RequestScope = { caller: () => (caller ??= ctx.callers.resolve(req, ctx.db)) };
      const writes = !match.options.readOnly;
      // Bumped before and after: a read that overlaps this request in any way is not reused after it.
      if (writes) ctx.reads.noteWrite();
      try {
        await match.handler({ req, res, params: match.params, query: parseQuery(url.search) }, scope);
      } catch (error) {
        throw withFieldErrorStatus(error, match.options.fieldErrorStatus ?? 422);
      } finally {
        if (writes) ctx.reads.noteWrite();
      }
    } catch (error) {
      respondWithError(res, error);
    }
  };
  return Object.assign(handle, { routes: () => router.list() });
}

/**
 * A refusal with field messages (`{message: 'Validation error', details}`, from a schema or a product's own rule)
 * gets the route's status; the body stays the same, so a form shows the same messages either way.
 */
function withFieldErrorStatus(error: unknown, status: 400 | 422): unknown {
  if (!(error instanceof ApiError) || error.status !== 422 || error.status === status) return error;
  if (error.message !== VALIDATION_ERROR_MESSAGE || typeof error.extra.details !== 'object') return error;
  return new ApiError(status, error.message, error.description, error.extra);
}

/** NUL as an escape in JSON (\u0000) or in a form value (%00). */
function bodyHasNul(text: string): boolean {
  if (!/\\u0000|%00/i.test(text)) return false;
  try {
    return containsNul(JSON.parse(text));
  } catch {
    try {
      return [...new URLSearchParams(text)].some(([key, value]) => key.includes('\u0000') || value.includes('\u0000'));
    } catch {
      return false;
    }
  }
}

function respondWithError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof ApiError) {
    // A 503 is a passing state (a storage or a dependency unavailable): clients are told when to try again.
    const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : error.status === 503 ? { 'retry-after': '5' } : {};
    sendJson(res, error.status, { message: error.message, description: error.description, ...error.extra }, headers);
    return;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CLIENT_SQL_ERRORS.has(code)) {
    sendJson(res, 400, { message: 'Invalid request', description: 'A value in the request is out of range or malformed.' });
    return;
  }
  console.error('[api] unexpected error:', describeErrorForLog(error));
  sendJson(res, 500, { message: 'Server error', description: 'Something went wrong on our side. Please try again later.' });
}
