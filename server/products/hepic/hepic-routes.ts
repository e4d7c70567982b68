import {
  AddHepicUsersBody,
  CANNOT_REMOVE_SELF_MESSAGE,
  CreateHepicTokenBody,
  HepicToggleBody,
  KEY_ROTATED_MESSAGE,
  ONLY_ADMINS_MESSAGE,
  ROLE_UPDATED_MESSAGE,
  RemoveHepicUserQuery,
  STATISTICS_UNAVAILABLE_MESSAGE,
  SUPERADMIN_LOCKED_MESSAGE,
  TOKEN_CREATED_MESSAGE,
  USER_ADDED_MESSAGE,
  USER_DELETED_MESSAGE,
  UpdateHepicRoleBody,
  autoAddMessage,
  configLoadErrorMessage,
  metricMessage,
  roleConfirmText,
  type HepicConfig,
  type HepicStatistics,
  type HepicToken,
  type HepicUser,
} from '../../../contract/hepic';
import { ProjectIdQuery } from '../../../contract/common';
import type { ApiContext, ApiRouter } from '../../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../../route-kit/caller';
import { ApiError, ValidationError, badRequest, decodeOrThrow, forbidden, notFound, readBody, sendJson } from '../../route-kit/http';
import { visibleProjectOr404 } from '../../route-kit/project-access';
import { findProjectIntegration } from '../../db/repositories/integrations-repository';
import type { HepicBackend } from './hepic-backend';
import { hashIngestKey, ingestKeyHint, newIngestToken } from './ingest-key';
import { HEPIC_PLANS, publicPlan } from './hepic-plans';
import {
  addUsers,
  findInstanceOfProject,
  findUserRole,
  insertToken,
  isProjectMember,
  listCandidates,
  listTokens,
  listUsers,
  removeUser,
  setUserRole,
  updateApiKey,
  updateSwitch,
  type HepicInstanceRow,
  type HepicTokenRow,
  type HepicUserRow,
} from './hepic-repository';
import { diskSize, storedSummary } from './hepic-storage';

// Hepic's API calls (spec 001 §7 Hepic), under /api/integrations/hepic/. Every call but plans names the project
// (project_id in the query). Who may do what (docs/hepic.md, Permissions):
// - plans and cloud/resources (the enable dialog): any member who can see the project;
// - config, statistics, users: people on the instance's user list (the card and the pages are theirs only);
// - tokens: listed people with write access to the organization (read-only members see only the Overview);
// - adding, removing and re-grouping users, auto-add and the metrics switch: listed admins (admin or superadmin),
//   in organization mode, with write access.

const DAY_MS = 86_400_000;
const ADMIN_GROUPS = new Set(['admin', 'superadmin']);
const ONLY_KEY_ADMINS_MESSAGE = 'Only hepic admins can rotate the ingestion token.';

const displayName = (row: { given_name: string; family_name: string; email: string }) => `${row.given_name} ${row.family_name}`.trim() || row.email;

export function registerHepicRoutes(router: ApiRouter, ctx: ApiContext, hepic: HepicBackend): void {
  const toUser = (row: HepicUserRow, instance: HepicInstanceRow): HepicUser => ({
    user_id: row.user_id,
    email: row.email,
    name: displayName(row),
    subdomain_prefix: instance.subdomain_prefix,
    group: (row.role === 'admin' || row.role === 'superadmin' ? row.role : 'user') as HepicUser['group'],
  });

  // `plain` only in the creation answer: the database holds the hash and the hint (docs/hepic.md, "Keys").
  const toToken = (row: HepicTokenRow, projectId: number, plain: string | null = null): HepicToken => ({
    id: row.id,
    project_id: projectId,
    token: plain,
    token_hint: row.token_hint,
    name: row.name,
    integration_type: 'hepic',
    status: row.expires_at.getTime() > ctx.clock.nowMs() ? 'active' : 'expired',
    scope: row.scope,
    creator_user_id: row.creator_user_id,
    cache_enabled: false,
    created_at: row.created_at.toISOString(),
    expires: row.expires_at.toISOString(),
  });

  async function projectOf(caller: Caller, query: Record<string, string>) {
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    return visibleProjectOr404(ctx, caller, project_id);
  }

  type Access = 'listed' | 'write' | 'admin' | 'key';

  /** The project's instance and the caller's group in it, checked for the access a call needs. */
  async function instanceOf(caller: Caller, query: Record<string, string>, access: Access): Promise<{ instance: HepicInstanceRow; group: string }> {
    const project = await projectOf(caller, query);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, 'hepic');
    const instance = integration ? await findInstanceOfProject(ctx.db, project.id) : undefined;
    if (!integration || !instance) throw badRequest(configLoadErrorMessage(project.id), 'Hepic is not enabled for this project. Enable it from the stack page.');
    const group = await findUserRole(ctx.db, instance.integration_id, caller.userId);
    if (!group) throw forbidden('Please ask your admin to add you as a user to this integration.');
    if (access === 'admin') {
      await requireOrganization(caller);
      await requireWritable(caller);
      if (!ADMIN_GROUPS.has(group)) throw forbidden(ONLY_ADMINS_MESSAGE);
    }
    if (access === 'write') await requireWritable(caller);
    // The ingestion key is the instance's: its admins (the superadmin who enabled it, the admins they chose) with
    // write access rotate it, in a personal project as well (there the owner is the superadmin).
    if (access === 'key') {
      await requireWritable(caller);
      if (!ADMIN_GROUPS.has(group)) throw forbidden(ONLY_KEY_ADMINS_MESSAGE);
    }
    return { instance, group };
  }

  async function isReadOnly(caller: Caller): Promise<boolean> {
    if (caller.organizationId === null) return false;
    return Boolean((await caller.membership())?.read_only);
  }

  async function objectBody(req: Parameters<Parameters<ApiRouter['add']>[2]>[0]['req']): Promise<Record<string, unknown>> {
    const body = await readBody(req);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Invalid request', 'The body must be a JSON object.');
    const { project_id: _ignored, ...rest } = body as Record<string, unknown>;
    return rest;
  }

  /** With auto-add on, the project's members who are not listed yet join as users when the list is read. */
  async function syncAutoAdd(instance: HepicInstanceRow): Promise<void> {
    if (!instance.auto_add) return;
    const missing = await listCandidates(ctx.db, instance.integration_id, instance.project_id);
    if (missing.length > 0) await addUsers(ctx.db, instance.integration_id, missing.map((m) => ({ userId: m.user_id, group: 'user' })));
  }

  router.add('GET', 'integrations/hepic/plans', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, HEPIC_PLANS.map(publicPlan));
  });

  router.add('GET', 'integrations/hepic/cloud/resources', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const project = await projectOf(caller, query);
    sendJson(res, 200, await hepic.resolver.resources(project.id));
  });

  router.add('GET', 'integrations/hepic/config', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { instance } = await instanceOf(caller, query, 'listed');
    const config: HepicConfig = {
      id: instance.id,
      project_id: instance.project_id,
      clickhouse_cluster_id: instance.cluster_id,
      api_key_hint: (await isReadOnly(caller)) ? null : instance.api_key_hint,
      ingress_url: hepic.hepEndpoint(),
      url: hepic.applicationUrl(instance),
      subdomain_prefix: instance.subdomain_prefix,
      hepic_metrics_enabled: instance.hepic_metrics_enabled,
      auto_add: instance.auto_add,
      price_id: instance.price_id,
      created_at: instance.created_at.toISOString(),
    };
    sendJson(res, 200, config);
  });

  router.add('GET', 'integrations/hepic/statistics', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { instance } = await instanceOf(caller, query, 'listed');
    let statistics: HepicStatistics;
    // The listener's queues are not flushed here: each instance's packets are written by its own loop within
    // 250 ms, and a page refresh must neither undo the batching nor wait on another instance's storage.
    const tenant = hepic.listener()?.tenant(instance.id) ?? { shed: 0, failed: 0, queued: 0 };
    try {
      const storage = await hepic.storageOf(instance);
      const stored = await storedSummary(storage.client, instance.database_name);
      const quota = instance.storage_quota_bytes === null ? null : Number(instance.storage_quota_bytes);
      const capacity = quota ?? (await diskSize(storage.dataDir));
      statistics = {
        storage_usage_bytes: stored.bytes,
        storage_quota: quota,
        storage_usage_percentage: capacity ? (stored.bytes / capacity) * 100 : null,
        rotation_point_sec: stored.oldestDay ? Math.floor(Date.parse(`${stored.oldestDay}T00:00:00Z`) / 1000) : null,
        packets: stored.packets,
        shed_packets: tenant.shed,
        failed_packets: tenant.failed,
        queued_packets: tenant.queued,
      };
    } catch {
      throw new ApiError(503, STATISTICS_UNAVAILABLE_MESSAGE, 'The storage of this Hepic instance could not be read. Try again in a moment.');
    }
    sendJson(res, 200, statistics);
  });

  router.add('GET', 'integrations/hepic/tokens', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    if (query.active !== undefined && query.active !== 'true' && query.active !== 'false') throw new ValidationError({ active: ['Must be true or false'] });
    const { instance } = await instanceOf(caller, query, 'write');
    const rows = await listTokens(ctx.db, instance.id, query.active === 'true' ? ctx.clock.now() : undefined);
    sendJson(res, 200, rows.map((row) => toToken(row, instance.project_id)));
  });

  router.add('POST', 'integrations/hepic/tokens', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(CreateHepicTokenBody, await objectBody(req));
    const { instance } = await instanceOf(caller, query, 'write');
    const now = ctx.clock.now();
    const plain = newIngestToken();
    // Every platform instance's listener forgets what it cached (a key refused before it existed, in theory); the
    // notification goes out when the token is committed.
    const row = await ctx.db.transaction(async (tx) => {
      const inserted = await insertToken(tx, {
        instanceId: instance.id,
        name: body.name.trim(),
        tokenHash: hashIngestKey(plain),
        tokenHint: ingestKeyHint(plain),
        creatorUserId: caller.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + body.ttl_days * DAY_MS),
      });
      await hepic.invalidate(instance.id, tx);
      return inserted;
    });
    hepic.forget(instance.id);
    sendJson(res, 201, { message: TOKEN_CREATED_MESSAGE, token: toToken(row, instance.project_id, plain) });
  });

  // A new ingestion key for a customer who lost theirs (it is shown only once). The old key's hash is replaced in
  // the same statement, and every platform instance drops its listener's cache when that commits (hepic.invalidate,
  // sent inside the transaction), so packets with the old key are refused at once wherever the HEP port is served.
  router.add('POST', 'integrations/hepic/key/rotate', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { instance } = await instanceOf(caller, query, 'key');
    const apiKey = newIngestToken();
    const hint = ingestKeyHint(apiKey);
    await ctx.db.transaction(async (tx) => {
      await updateApiKey(tx, instance.id, { hash: hashIngestKey(apiKey), hint });
      await hepic.invalidate(instance.id, tx);
    });
    // Again after the commit: a packet looked up on this instance between the first drop and the commit read the
    // old key, which was still committed.
    hepic.forget(instance.id);
    sendJson(res, 200, { message: KEY_ROTATED_MESSAGE, api_key: apiKey, api_key_hint: hint });
  });

  router.add('GET', 'integrations/hepic/users', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { instance } = await instanceOf(caller, query, 'listed');
    await syncAutoAdd(instance);
    sendJson(res, 200, (await listUsers(ctx.db, instance.integration_id)).map((row) => toUser(row, instance)));
  });

  router.add('GET', 'integrations/hepic/users/candidates', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { instance } = await instanceOf(caller, query, 'listed');
    const rows = await listCandidates(ctx.db, instance.integration_id, instance.project_id);
    sendJson(res, 200, rows.map((row) => ({ user_id: row.user_id, email: row.email, name: displayName(row) })));
  });

  router.add('POST', 'integrations/hepic/users', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(AddHepicUsersBody, await objectBody(req));
    const { instance } = await instanceOf(caller, query, 'admin');
    const errors: string[] = [];
    for (const user of body.users) if (!(await isProjectMember(ctx.db, instance.project_id, user.user_id))) errors.push('This person is not a member of the project.');
    if (errors.length > 0) throw new ValidationError({ user_id: [errors[0]] });
    const added = await ctx.db.transaction((tx) => addUsers(tx, instance.integration_id, body.users.map((u) => ({ userId: u.user_id, group: u.group }))));
    if (added === 0) throw new ValidationError({ user_id: ['This person is already a hepic user.'] });
    sendJson(res, 201, { message: USER_ADDED_MESSAGE, added });
  });

  router.add('DELETE', 'integrations/hepic/users', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { user_id } = decodeOrThrow(RemoveHepicUserQuery, { user_id: query.user_id });
    const { instance } = await instanceOf(caller, query, 'admin');
    if (user_id === caller.userId) throw new ValidationError({ user_id: [CANNOT_REMOVE_SELF_MESSAGE] });
    const role = await findUserRole(ctx.db, instance.integration_id, user_id);
    if (!role) throw notFound('This person is not a hepic user.');
    if (role === 'superadmin') throw new ValidationError({ user_id: [SUPERADMIN_LOCKED_MESSAGE] });
    await removeUser(ctx.db, instance.integration_id, user_id);
    sendJson(res, 200, { message: USER_DELETED_MESSAGE });
  });

  // Without has_confirmed the answer is the confirm prompt and nothing changes (spec §4): the console shows it in
  // the 'Update user role' modal; CANCEL_UPDATE_HEPIC_USER_ROLE sends the previous group the same way.
  router.add('PATCH', 'integrations/hepic/users/role', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(UpdateHepicRoleBody, await objectBody(req));
    const { instance } = await instanceOf(caller, query, 'admin');
    const [target] = body.users;
    const users = await listUsers(ctx.db, instance.integration_id);
    const row = users.find((u) => u.user_id === target.user_id);
    if (!row) throw notFound('This person is not a hepic user.');
    if (row.role === 'superadmin') throw new ValidationError({ group: [SUPERADMIN_LOCKED_MESSAGE] });
    if (body.has_confirmed !== true) {
      sendJson(res, 200, { message: roleConfirmText(displayName(row), target.group), confirm: true, user_id: target.user_id, group: target.group });
      return;
    }
    if (target.group !== 'admin' && row.role === 'admin' && !users.some((u) => u.user_id !== row.user_id && ADMIN_GROUPS.has(u.role))) {
      throw new ValidationError({ group: ['A hepic instance needs at least one admin.'] });
    }
    await setUserRole(ctx.db, instance.integration_id, target.user_id, target.group);
    sendJson(res, 200, { message: ROLE_UPDATED_MESSAGE, confirm: false, user_id: target.user_id, group: target.group });
  });

  router.add('POST', 'integrations/hepic/auto-add', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(HepicToggleBody, await objectBody(req));
    const { instance } = await instanceOf(caller, query, 'admin');
    await updateSwitch(ctx.db, instance.id, 'auto_add', body.enabled);
    await syncAutoAdd({ ...instance, auto_add: body.enabled });
    sendJson(res, 200, { message: autoAddMessage(body.enabled), enabled: body.enabled });
  });

  router.add('PATCH', 'integrations/hepic/metric', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(HepicToggleBody, await objectBody(req));
    const { instance } = await instanceOf(caller, query, 'admin');
    await updateSwitch(ctx.db, instance.id, 'hepic_metrics_enabled', body.enabled);
    sendJson(res, 200, { message: metricMessage(body.enabled), enabled: body.enabled });
  });
}
