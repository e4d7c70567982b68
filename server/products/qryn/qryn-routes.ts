import {
  CreateTokenBody,
  FINGERPRINT_LIMIT_UPDATED_MESSAGE,
  KEYS_ROTATED_MESSAGE,
  MetricsQuery,
  RETENTION_UPDATED_MESSAGE,
  STATS_UNAVAILABLE_MESSAGE,
  COSTS_UNAVAILABLE_MESSAGE,
  INSTRUMENT_UNKNOWN_CLUSTER_MESSAGE,
  INSTRUMENTED_MESSAGE,
  InstrumentBody,
  TOKEN_CREATED_MESSAGE,
  TOKEN_DELETED_MESSAGE,
  TokenIdParam,
  ToggleBody,
  UpdateFingerprintLimitBody,
  UpdateRetentionBody,
  cacheMessage,
  configLoadErrorMessage,
  drilldownMessage,
  type QrynConfig,
  type QrynToken,
  type QrynMetrics,
} from '../../../contract/qryn';
import { ProjectIdQuery } from '../../../contract/common';
import { READ_LIMIT_NAMES, READ_LIMITS_UPDATED_MESSAGE, readLimitOverPlatform, UpdateReadLimitsBody, type QrynReadLimits, type ReadLimitField, type ReadLimits } from '../../../contract/qryn-read-limits';
import { currentReadSettings, instanceReadSettings, type ReadSettings } from './query/read-settings';
import type { InstanceLimitKey, InstanceReadLimits } from './instances/read-limits';
import type { ApiContext, ApiRouter } from '../../route-kit/api-context';
import { requireCaller, requireOrganization, requireOwner, requireWritable, type Caller } from '../../route-kit/caller';
import { ApiError, ValidationError, badRequest, decodeOrThrow, notFound, readBody, sendJson } from '../../route-kit/http';
import { visibleProjectOr404 } from '../../route-kit/project-access';
import type { QrynBackend } from './qryn-backend';
import { newApiKey, newSecret, newToken } from './qryn-backend';
import {
  deleteToken,
  findInstanceOfProject,
  hashSecret,
  insertToken,
  listTokens,
  updateCredentials,
  updateFlag,
  updateReadLimits,
  updateRetention,
  type QrynInstanceRow,
  type QrynTokenRow,
} from './instances/qryn-repository';
import { projectHasPaymentMethod } from '../../db/repositories/clickhouse-repository';
import { instanceStats } from './storage/stats';
import { readScheduler } from './query/read-scheduler';
import { monthCosts, storedBytesByType } from './costs';
import { listInstrumented, setInstrumented } from './instrumentation';
import { DEFAULT_RETENTION_POLICY_ID, RETENTION_POLICIES, writerRegions } from './storage/storage-resolver';

// qryn's API calls (spec 001 §7 qryn), under /api/integrations/qryn/. Every call names the project (project_id);
// reads are open to the project's members, read-only members included (the Overview); changes, keys and tokens
// need write access to the organization.

/** The read scheduler's counters of an instance and the caps in force, as the metrics call names them. */
function readCounters(instanceId: string) {
  const scheduler = readScheduler();
  const c = scheduler.counters(instanceId);
  return {
    reads_running: c.running,
    reads_queued: c.queued,
    reads_refused: c.refused,
    reads_timed_out: c.timedOut,
    reads_bytes_answered: c.bytesAnswered,
    reads_running_limit: scheduler.settings.instanceRunning,
    reads_queued_limit: scheduler.settings.instanceQueued,
  };
}

/** The API's names of an instance's read limits and the settings they replace. */
const LIMIT_KEYS: Record<ReadLimitField, InstanceLimitKey> = {
  max_execution_time: 'maxExecutionTimeS',
  max_rows_to_read: 'maxRowsToRead',
  max_bytes_to_read: 'maxBytesToRead',
  max_memory_usage: 'maxMemoryUsage',
  max_threads: 'maxThreads',
  max_result_rows: 'maxResultRows',
};

function readLimitsOf(stored: InstanceReadLimits, canEdit: boolean): QrynReadLimits {
  const pick = (s: ReadSettings) => Object.fromEntries(READ_LIMIT_NAMES.map((name) => [name, s[LIMIT_KEYS[name]]])) as QrynReadLimits['defaults'];
  const limits = Object.fromEntries(READ_LIMIT_NAMES.map((name) => [name, stored[LIMIT_KEYS[name]] ?? null])) as ReadLimits;
  const defaults = currentReadSettings();
  return { limits, defaults: pick(defaults), effective: pick(instanceReadSettings(stored, defaults)), can_edit: canEdit };
}

const toToken = (row: QrynTokenRow, token?: string): QrynToken => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  token: token ?? row.token_hint,
  created_at: row.created_at.toISOString(),
});

export function registerQrynRoutes(router: ApiRouter, ctx: ApiContext, qryn: QrynBackend): void {
  async function projectOf(caller: Caller, query: Record<string, string>) {
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    return visibleProjectOr404(ctx, caller, project_id);
  }

  /** The caller's project's instance; `write` also requires write access (read-only members get 403). */
  async function instanceOf(caller: Caller, query: Record<string, string>, access: 'read' | 'write'): Promise<QrynInstanceRow> {
    const project = await projectOf(caller, query);
    if (access === 'write') await requireWritable(caller);
    const instance = await findInstanceOfProject(ctx.db, project.id);
    if (!instance) throw badRequest(configLoadErrorMessage(project.id), 'qryn is not enabled for this project. Enable it from the stack page.');
    return instance;
  }

  async function isReadOnly(caller: Caller): Promise<boolean> {
    if (caller.organizationId === null) return false;
    return Boolean((await caller.membership())?.read_only);
  }

  /** Body fields with project_id allowed beside them (the spec sends it in the body of POST tokens). */
  async function bodyOf(req: Parameters<Parameters<ApiRouter['add']>[2]>[0]['req']): Promise<Record<string, unknown>> {
    const body = await readBody(req);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Invalid request', 'The body must be a JSON object.');
    const { project_id: _ignored, ...rest } = body as Record<string, unknown>;
    return rest;
  }

  router.add('GET', 'integrations/qryn/cloud/resources', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const project = await projectOf(caller, query);
    sendJson(res, 200, await qryn.resolver.resources(project.id));
  });

  router.add('GET', 'integrations/qryn/writer-regions', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, writerRegions());
  });

  router.add('GET', 'integrations/qryn/retention/policies', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, RETENTION_POLICIES);
  });

  router.add('GET', 'integrations/qryn/config', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const instance = await instanceOf(caller, query, 'read');
    const readOnly = await isReadOnly(caller);
    const client = await qryn.storageOf(instance).catch(() => undefined);
    const reached = client
      ? await qryn.writer.limitReached({ id: instance.id, database: instance.database_name, client, fingerprintLimit: instance.fingerprint_limit }).catch(() => false)
      : false;
    const config: QrynConfig = {
      id: instance.id,
      project_id: instance.project_id,
      api_key: readOnly ? null : instance.api_key,
      api_secret: null,
      organization_id: instance.organization_id,
      clickhouse_cluster_id: instance.cluster_id,
      writer_region_code: instance.writer_region_code,
      url: qryn.instanceUrl(instance.id),
      multi_org: instance.multi_org,
      ttl_addon_id: instance.ttl_addon_id,
      ttl_days: instance.ttl_days,
      fingerprint_limit: instance.fingerprint_limit,
      cache_enabled: instance.cache_enabled,
      use_drilldown: instance.use_drilldown,
      created_at: instance.created_at.toISOString(),
      read_only_token: null,
      fingerprint_limit_reached: reached,
      trial: !(await projectHasPaymentMethod(ctx.db, instance.project_id)),
    };
    sendJson(res, 200, config);
  });

  router.add('GET', 'integrations/qryn/metrics', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    // Whole seconds as digits: the number schema alone would read '' as 0.
    const digits: Record<string, string[]> = {};
    for (const field of ['start', 'end'] as const) if (!/^\d{1,12}$/.test(query[field] ?? '')) digits[field] = ['Must be whole seconds'];
    if (Object.keys(digits).length > 0 && query.project_id !== undefined) throw new ValidationError(digits);
    const period = decodeOrThrow(MetricsQuery, query);
    if (period.end < period.start) throw new ValidationError({ end: ['The end must not be before the start.'] });
    const instance = await instanceOf(caller, query, 'read');
    try {
      const client = await qryn.storageOf(instance);
      const today = new Date(ctx.clock.nowMs()).toISOString().slice(0, 10);
      const refused = qryn.gateway.refusals(instance.id);
      const stats = await instanceStats(client, instance.database_name, period, { ttlDays: instance.ttl_days, fingerprintLimit: instance.fingerprint_limit, today });
      // The gateway's stored-bytes quota, against the same figure it measures (stored-bytes.ts), read fresh here.
      const quota = qryn.gateway.limits.maxStoredBytes;
      sendJson(res, 200, {
        ...stats,
        size_limit: quota > 0 ? quota : null,
        size_limit_reached: quota > 0 && stats.data_bytes >= quota,
        refused_over_quota: refused.overQuota,
        refused_busy: refused.busy,
        refused_over_limit: refused.overLimit,
        refused_sign_ins: refused.throttledLogins,
        series_per_push_limit: qryn.gateway.limits.seriesPerPush,
        samples_per_second_limit: qryn.gateway.limits.samplesPerSecond,
        ...readCounters(instance.id),
      } satisfies QrynMetrics);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(503, STATS_UNAVAILABLE_MESSAGE, 'The storage could not be read. Try again in a moment.');
    }
  });

  // The month's cost from what the store holds now (costs.ts, docs/qryn.md "Costs").
  router.add('GET', 'integrations/qryn/costs', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const instance = await instanceOf(caller, query, 'read');
    const policy = RETENTION_POLICIES.find((p) => p.id === instance.ttl_addon_id) ?? RETENTION_POLICIES.find((p) => p.id === DEFAULT_RETENTION_POLICY_ID)!;
    let bytes;
    try {
      bytes = await storedBytesByType(await qryn.storageOf(instance), instance.database_name);
    } catch {
      throw new ApiError(503, COSTS_UNAVAILABLE_MESSAGE, 'The storage could not be read. Try again in a moment.');
    }
    sendJson(res, 200, monthCosts({ bytes, policy, fingerprintLimit: instance.fingerprint_limit, nowMs: ctx.clock.nowMs() }));
  });

  // Instrumentation (instrumentation.ts, docs/qryn.md "Instrumentation"): the project's running ClickHouse clusters
  // whose system tables the scrape job writes into this instance.
  router.add('GET', 'integrations/qryn/instrumented-applications', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const instance = await instanceOf(caller, query, 'read');
    sendJson(res, 200, await listInstrumented(ctx.db, instance.id));
  });

  router.add('POST', 'integrations/qryn/instrument', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(InstrumentBody, await bodyOf(req));
    const instance = await instanceOf(caller, query, 'write');
    const clusters = (await qryn.resolver.resources(instance.project_id)).filter((r) => r.kind === 'project');
    const ids = [...new Set(body.cluster_ids)];
    const chosen = ids.map((id) => clusters.find((c) => c.clickhouse_cluster_id === id));
    if (chosen.some((c) => c === undefined)) throw new ValidationError({ cluster_ids: [INSTRUMENT_UNKNOWN_CLUSTER_MESSAGE] });
    await setInstrumented(ctx.db, instance.id, chosen.map((c) => ({ id: c!.clickhouse_cluster_id, name: c!.name })));
    sendJson(res, 200, { message: INSTRUMENTED_MESSAGE, applications: await listInstrumented(ctx.db, instance.id) });
  });

  router.add('GET', 'integrations/qryn/tokens', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const instance = await instanceOf(caller, query, 'write');
    sendJson(res, 200, (await listTokens(ctx.db, instance.id)).map((row) => toToken(row)));
  });

  router.add('POST', 'integrations/qryn/tokens', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const raw = (await readBody(req)) as Record<string, unknown>;
    const projectQuery = query.project_id !== undefined ? query : { project_id: String(raw?.project_id ?? '') };
    const { project_id: _ignored, ...fields } = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : ({} as Record<string, unknown>);
    const body = decodeOrThrow(CreateTokenBody, fields);
    const instance = await instanceOf(caller, projectQuery, 'write');
    const token = newToken();
    const row = await insertToken(ctx.db, { instanceId: instance.id, name: body.name.trim() || body.name, scope: body.scope ?? 'read', token, creatorUserId: caller.userId });
    sendJson(res, 201, { message: TOKEN_CREATED_MESSAGE, token: toToken(row, token) });
  });

  router.add('DELETE', 'integrations/qryn/tokens/:id', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { id } = decodeOrThrow(TokenIdParam, params);
    const instance = await instanceOf(caller, query, 'write');
    if (!(await deleteToken(ctx.db, instance.id, id))) throw notFound(`There is no token ${id} in this qryn instance.`);
    await qryn.invalidate();
    sendJson(res, 200, { message: TOKEN_DELETED_MESSAGE });
  });

  // A GET that writes (the spec's call): the old key and secret stop working at once.
  router.add(
    'GET',
    'integrations/qryn/config/credentials/rotate',
    async ({ res, query }, scope) => {
      const caller = requireCaller(await scope.caller());
      const instance = await instanceOf(caller, query, 'write');
      const apiKey = newApiKey();
      const apiSecret = newSecret();
      await updateCredentials(ctx.db, instance.id, apiKey, hashSecret(apiSecret));
      await qryn.invalidate();
      sendJson(res, 200, { message: KEYS_ROTATED_MESSAGE, api_key: apiKey, api_secret: apiSecret });
    },
    { readOnly: false },
  );

  router.add('PATCH', 'integrations/qryn/retention/policies', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(UpdateRetentionBody, await bodyOf(req));
    const instance = await instanceOf(caller, query, 'write');
    const policy = RETENTION_POLICIES.find((p) => p.id === body.ttl_addon_id);
    if (!policy) throw new ValidationError({ ttl_addon_id: ['Please select a retention plan.'] });
    await updateRetention(ctx.db, instance.id, policy.id, policy.ttl_days);
    sendJson(res, 200, { message: RETENTION_UPDATED_MESSAGE, ttl_addon_id: policy.id, ttl_days: policy.ttl_days });
  });

  router.add('PATCH', 'integrations/qryn/fingerprints/limit', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(UpdateFingerprintLimitBody, await bodyOf(req));
    const instance = await instanceOf(caller, query, 'write');
    await updateFlag(ctx.db, instance.id, 'fingerprint_limit', body.limit);
    await qryn.invalidate(instance.id);
    sendJson(res, 200, { message: FINGERPRINT_LIMIT_UPDATED_MESSAGE, limit: body.limit });
  });

  // An instance's own ClickHouse read bounds: read by the project's members, changed by an owner only, and only
  // within the platform's, since they decide how much of the shared storage one instance's reads may take.
  async function mayEditLimits(caller: Caller): Promise<boolean> {
    if (caller.organizationId === null) return true;
    return Boolean((await caller.membership())?.owner);
  }

  router.add('GET', 'integrations/qryn/read-limits', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const instance = await instanceOf(caller, query, 'read');
    sendJson(res, 200, readLimitsOf(instance.read_limits ?? {}, await mayEditLimits(caller)));
  });

  router.add('PUT', 'integrations/qryn/read-limits', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(UpdateReadLimitsBody, await bodyOf(req));
    const instance = await instanceOf(caller, query, 'read');
    if (caller.organizationId !== null) await requireOwner(caller);
    // The storage is shared: an instance may tighten the platform's bounds, never loosen them (0 is no bound).
    const platform = currentReadSettings();
    const stored: InstanceReadLimits = {};
    const over: Record<string, string[]> = {};
    for (const name of READ_LIMIT_NAMES) {
      const value = body[name];
      if (value === null) continue;
      const bound = platform[LIMIT_KEYS[name]];
      if (bound > 0 && (value === 0 || value > bound)) over[name] = [readLimitOverPlatform(bound)];
      stored[LIMIT_KEYS[name]] = value;
    }
    if (Object.keys(over).length > 0) throw new ValidationError(over);
    await updateReadLimits(ctx.db, instance.id, stored);
    // The gateway reads the instance from its credential cache: forget it so the limits hold from the next read.
    await qryn.invalidate();
    sendJson(res, 200, { message: READ_LIMITS_UPDATED_MESSAGE, read_limits: readLimitsOf(stored, true) });
  });

  // The two server-side switches (spec: optimistic toggles with their toasts).
  for (const [name, column, message] of [
    ['cache', 'cache_enabled', cacheMessage],
    ['drilldown', 'use_drilldown', drilldownMessage],
  ] as const) {
    router.add('PATCH', `integrations/qryn/${name}`, async ({ req, res, query }, scope) => {
      const caller = requireCaller(await scope.caller());
      const body = decodeOrThrow(ToggleBody, await bodyOf(req));
      const instance = await instanceOf(caller, query, 'write');
      await updateFlag(ctx.db, instance.id, column, body.enabled);
      // The gateway reads the switch from its credential cache: forget it so the change holds at once.
      await qryn.invalidate();
      sendJson(res, 200, { message: message(body.enabled), enabled: body.enabled });
    });
  }

}
