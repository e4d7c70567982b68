import type { ServerResponse } from 'node:http';
import { Schema } from 'effect';
import { ProjectIdQuery } from '../../../contract/common';
import {
  ALREADY_RUNNING_MESSAGE,
  URL_MESSAGE,
  URL_NOT_ALLOWED_MESSAGE,
  URL_UNRESOLVED_MESSAGE,
  LoggenConfigBody,
  validateLoggenConfig,
  type LoggenConfig,
  type LoggenRunChunk,
} from '../../../contract/loggen';
import type { ApiContext, ApiRouter } from '../../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../../route-kit/caller';
import { ApiError, badRequest, decodeOrThrow, readBody, sendJson, ValidationError } from '../../route-kit/http';
import { visibleProjectOr404 } from '../../route-kit/project-access';
import { findProjectIntegration } from '../../db/repositories/integrations-repository';
import { cancelJob, latestJobFor, type JobRow } from '../../db/repositories/jobs-repository';
import { deleteLoggenConfig, findLoggenConfig, saveLoggenConfig } from '../../db/repositories/loggen-repository';
import { AddressRefused, outboundRules, parseHost, resolveAllowed } from '../../net/address-rules';
import type { IngestionTarget, ProductBackend } from '../../route-kit/product-backend';
import type { ProductFactory } from '../product-factory';
import { DEFAULT_STRUCTURE, LOG_CATEGORIES, listLogOptions } from './log-catalogue';
import { LOGGEN_RUN_JOB, loggenSubject, runLoggen, type LoggenRunPayload } from './loggen-run';

// Loggen's back end: its configuration (GET/PATCH config), the structure catalogue, and runs as jobs whose progress
// the POST run response streams as NDJSON chunks {current, max, status}.

const USABLE = new Set(['trial', 'active', 'scheduled_for_cancellation']);
const STREAM_POLL_MS = 250;
const CategoryQuery = Schema.Struct({ category: Schema.optional(Schema.String) });

function notConfigured(projectId: number): ApiError {
  return badRequest(
    `We had some issues loading the configuration of the Loggen integration for project ${projectId}`,
    'Loggen may not be enabled for this project. Enable it from the stack page.',
  );
}

export const createLoggenBackend: ProductFactory = (platform): ProductBackend => {
  async function integrationFor(ctx: ApiContext, caller: Caller, query: Record<string, string>) {
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    const project = await visibleProjectOr404(ctx, caller, project_id);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, 'loggen');
    if (!integration || !USABLE.has(integration.status)) throw notConfigured(project.id);
    return { project, integration };
  }

  function defaults(projectId: number, integrationId: number, target?: IngestionTarget): LoggenConfig {
    return {
      url: target?.url ?? '',
      headers: [],
      api_key: target?.apiKey ?? '',
      api_secret: target?.apiSecret ?? '',
      labels: [{ key: 'app', value: 'loggen' }],
      rate: 10,
      timeout: '30s',
      log_config: { format: 'json', structure: [...DEFAULT_STRUCTURE] },
      enable_metrics: false,
      traces: { enabled: false, custom: false, spans: [] },
      project_id: projectId,
      subscription_id: integrationId,
    };
  }

  /**
   * The saved configuration, or the defaults pointing at the project's qryn instance. The defaults are saved the
   * first time (under the integration's row lock), so the write token qryn makes for Loggen is made once.
   */
  async function currentConfig(ctx: ApiContext, projectId: number, integrationId: number, userId: string): Promise<LoggenConfig> {
    const saved = await findLoggenConfig(ctx.db, integrationId);
    if (saved) return { ...(saved as unknown as LoggenConfig), project_id: projectId, subscription_id: integrationId };
    const qryn = ctx.products.get('qryn');
    if (!qryn?.ingestionTarget) return defaults(projectId, integrationId);
    return ctx.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM integrations WHERE id = $1 FOR UPDATE', [integrationId]);
      const again = await findLoggenConfig(tx, integrationId);
      if (again) return { ...(again as unknown as LoggenConfig), project_id: projectId, subscription_id: integrationId };
      const target = await qryn.ingestionTarget!(tx, projectId);
      if (!target) return defaults(projectId, integrationId);
      const config = defaults(projectId, integrationId, target);
      const { project_id: _p, subscription_id: _s, ...body } = config;
      await saveLoggenConfig(tx, integrationId, body, userId);
      return config;
    });
  }

  /**
   * Where Loggen may push: the project's own qryn instance (exactly its address), or an http(s) address whose host
   * resolves to public addresses only (the address rules, docs/security.md). Answers whether the target is the
   * project's own instance; a refused address is a 422 at the url field.
   */
  async function checkTarget(ctx: ApiContext, projectId: number, text: string): Promise<boolean> {
    const own = await ctx.products.get('qryn')?.ingestionUrl?.(ctx.db, projectId);
    const trimmed = text.replace(/\/+$/, '');
    if (own !== undefined && trimmed === own) return true;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ValidationError({ url: [URL_MESSAGE] });
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !parseHost(url.hostname)) {
      throw new ValidationError({ url: [URL_NOT_ALLOWED_MESSAGE] });
    }
    try {
      await resolveAllowed(url.hostname, outboundRules(ctx.config));
    } catch (error) {
      throw new ValidationError({ url: [error instanceof AddressRefused ? URL_NOT_ALLOWED_MESSAGE : URL_UNRESOLVED_MESSAGE] });
    }
    return false;
  }

  function chunkOf(job: JobRow): LoggenRunChunk {
    const status = job.status === 'done' ? 'done' : job.status === 'failed' ? 'failed' : job.status === 'cancelled' ? 'stopped' : 'running';
    return {
      current: job.progress_current,
      max: job.progress_max,
      status,
      ...(status === 'failed' && job.error ? { error: job.error } : {}),
    };
  }

  /** Writes the job's progress until it ends or the client goes away. */
  async function streamRun(ctx: ApiContext, res: ServerResponse, jobId: number): Promise<void> {
    res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    let closed = false;
    res.on('close', () => (closed = true));
    let last = '';
    while (!closed) {
      const job = await ctx.jobs.get(jobId);
      if (!job) break;
      const chunk = chunkOf(job);
      const line = JSON.stringify(chunk);
      if (line !== last) {
        res.write(`${line}\n`);
        last = line;
      }
      if (chunk.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, STREAM_POLL_MS));
    }
    res.end();
  }

  return {
    slug: 'loggen',
    // Loggen is enabled directly; its configuration starts from the defaults on the first GET config.
    async enable() {
      return {};
    },
    async release(tx, { integrationId }) {
      const job = await latestJobFor(tx, loggenSubject(integrationId), LOGGEN_RUN_JOB);
      if (job && (job.status === 'queued' || job.status === 'running')) await cancelJob(tx, job.id);
      await deleteLoggenConfig(tx, integrationId);
    },
    async start() {
      // A customer's run: in the tenant pool, so ten-minute runs never hold back the platform's own jobs.
      platform.jobs.register(LOGGEN_RUN_JOB, (job) => runLoggen(job, { rules: outboundRules(platform.config) }), { pool: 'tenant' });
      // The generator works when no run is stuck: a running job whose lease ran out means no worker is alive.
      platform.services.register({ slug: 'loggen', name: 'Loggen' }, 'Log generator', async () => {
        const stuck = await platform.db.query(
          `SELECT 1 FROM jobs WHERE kind = $1 AND status = 'running' AND locked_until < now() - interval '5 seconds' LIMIT 1`,
          [LOGGEN_RUN_JOB],
        );
        return stuck.length === 0;
      });
      // Runs write into a qryn instance: Loggen is down while qryn's storage is.
      platform.services.follow({ slug: 'loggen', name: 'Loggen' }, 'qryn storage', { slug: 'qryn', service: 'Storage' });
    },
    registerRoutes(router: ApiRouter, ctx: ApiContext) {
      router.add('GET', 'integrations/loggen/config/logs/categories', async ({ res }, scope) => {
        requireCaller(await scope.caller());
        sendJson(res, 200, LOG_CATEGORIES);
      });

      router.add('GET', 'integrations/loggen/config/logs', async ({ res, query }, scope) => {
        requireCaller(await scope.caller());
        const { category } = decodeOrThrow(CategoryQuery, { category: query.category });
        sendJson(res, 200, listLogOptions(category));
      });

      router.add('GET', 'integrations/loggen/config', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { project, integration } = await integrationFor(ctx, caller, query);
        const config = await currentConfig(ctx, project.id, integration.id, caller.userId);
        // Read-only members see the configuration but not the secret it pushes with.
        const membership = await caller.membership();
        sendJson(res, 200, membership?.read_only ? { ...config, api_secret: '' } : config);
      },
      // The first read saves the defaults (and qryn's token for Loggen): not a pure read for the read cache.
      { readOnly: false });

      router.add('PATCH', 'integrations/loggen/config', async ({ req, res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        await requireWritable(caller);
        const { integration } = await integrationFor(ctx, caller, query);
        const body = decodeOrThrow(LoggenConfigBody, await readBody(req));
        const errors = validateLoggenConfig(body, listLogOptions());
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        await checkTarget(ctx, integration.project_id, body.url);
        await saveLoggenConfig(ctx.db, integration.id, body, caller.userId);
        sendJson(res, 200, { message: 'The configuration has been saved', step: 'run-loggen' });
      });

      router.add('POST', 'integrations/loggen/run', async ({ req, res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        await requireWritable(caller);
        const { project, integration } = await integrationFor(ctx, caller, query);
        req.resume();
        const config = await currentConfig(ctx, project.id, integration.id, caller.userId);
        const { project_id: _p, subscription_id: _s, ...body } = config;
        const errors = validateLoggenConfig(body, listLogOptions());
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        // Checked again on every run: the saved address's name may resolve elsewhere by now.
        const trusted = await checkTarget(ctx, project.id, body.url);
        // One run at a time per project: checked and enqueued under the integration's row lock.
        const job = await ctx.db.transaction(async (tx) => {
          await tx.query('SELECT id FROM integrations WHERE id = $1 FOR UPDATE', [integration.id]);
          const latest = await latestJobFor(tx, loggenSubject(integration.id), LOGGEN_RUN_JOB);
          if (latest && (latest.status === 'queued' || latest.status === 'running')) return null;
          const payload: LoggenRunPayload = { integrationId: integration.id, projectId: project.id, config: body, trusted };
          // The organization (or the personal project's owner) is the tenant: its runs count against the per-tenant cap.
          const tenant = project.organization_id !== null ? `organization:${project.organization_id}` : `user:${project.user_id}`;
          return ctx.jobs.enqueue(tx, LOGGEN_RUN_JOB, { subject: loggenSubject(integration.id), payload, maxAttempts: 1, tenant });
        });
        if (!job) throw new ApiError(409, 'Loggen is already running', ALREADY_RUNNING_MESSAGE);
        await streamRun(ctx, res, job.id);
      });

      // Coming back to the page: the run in progress (streamed) or how the last one ended (one chunk); 204 if none.
      router.add('GET', 'integrations/loggen/run', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { integration } = await integrationFor(ctx, caller, query);
        const latest = await latestJobFor(ctx.db, loggenSubject(integration.id), LOGGEN_RUN_JOB);
        if (!latest) {
          res.writeHead(204, { 'cache-control': 'no-store' });
          res.end();
          return;
        }
        await streamRun(ctx, res, latest.id);
      });

      router.add('POST', 'integrations/loggen/run/stop', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        await requireWritable(caller);
        const { integration } = await integrationFor(ctx, caller, query);
        const latest = await latestJobFor(ctx.db, loggenSubject(integration.id), LOGGEN_RUN_JOB);
        const stopped = latest ? await ctx.jobs.cancel(latest.id) : false;
        sendJson(res, 200, { message: stopped ? 'Loggen has been stopped' : 'Loggen is not running' });
      });
    },
  };
};
