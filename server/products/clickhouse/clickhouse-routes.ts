import {
  ClusterMessage,
  ClusterQuery,
  CreateExternalClusterBody,
  DEFAULT_DISK_NAME,
  DEFAULT_MACHINES,
  DEFAULT_SHARDS,
  DEFAULT_REPLICAS,
  DiskTypesQuery,
  IpSafeListBody,
  MetricsQuery,
  ZonesQuery,
  createClusterBody,
  diskSizeBytes,
  type CreateClusterBody,
  type Provider,
  type ClickhouseVersion,
} from '../../../contract/clickhouse';
import { ProjectIdQuery, type FieldErrors } from '../../../contract/common';
import type { ApiContext, ApiRouter } from '../../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../../route-kit/caller';
import { ApiError, ValidationError, badRequest, conflict, decodeOrThrow, readBody, sendJson } from '../../route-kit/http';
import { visibleProjectOr404 } from '../../route-kit/project-access';
import {
  findProjectCluster,
  insertCluster,
  listProjectClusters,
  lockAccountManagedClusters,
  lockProjectClusters,
  projectHasPaymentMethod,
  setIpSafeList,
  type ClusterRow,
} from '../../db/repositories/clickhouse-repository';
import { findProjectIntegration } from '../../db/repositories/integrations-repository';
import { ClickhouseError, clickhouseQuery, type ClickhouseEndpoint } from './clickhouse-http';
import type { ClickhouseBackend } from './clickhouse-backend';
import { CLUSTER_PROGRESS_KINDS, clusterSubject, planOf, PROVISION_JOB, sha256Hex, toClusterResponse } from './cluster-records';
import { readMetadata, readMetrics, type MetricsTarget } from './cluster-metrics';
import { INTERNAL_USER } from './local-provisioner';
import { DEFAULT_CLICKHOUSE_CLUSTERS_PER_ACCOUNT, DEFAULT_CLICKHOUSE_CLUSTERS_PER_TRIAL_ACCOUNT, DEFAULT_EXTERNAL_CONNECT_ATTEMPTS } from '../../config';
import { AddressRefused, outboundRules, parseHost, resolveAllowed } from '../../net/address-rules';
import { createAttemptLimiter } from '../../net/attempt-limiter';
import { DEFAULT_DISK_TYPES, DISK_TYPES, gcpZones, MACHINES, REGIONS, findDiskType, findMachine, findRegion } from './price-list';
import { findVersionIn } from './clickhouse-versions';

// The ClickHouse calls of spec §7. Reference data is public to every signed-in user and cached for an hour; cluster
// calls are scoped to a project the caller sees, and changes need write access (read-only members only read).

const REFERENCE_CACHE = { 'cache-control': 'private, max-age=3600' };
const USABLE_INTEGRATION = new Set(['trial', 'active', 'scheduled_for_cancellation']);

export function registerClickhouseRoutes(router: ApiRouter, ctx: ApiContext, backend: ClickhouseBackend): void {
  const attemptsPerWindow = ctx.config.externalConnectAttempts ?? DEFAULT_EXTERNAL_CONNECT_ATTEMPTS;
  const connectAttempts = createAttemptLimiter({ attempts: attemptsPerWindow, windowMs: 10 * 60_000 });
  async function projectOf(caller: Caller, query: Record<string, string>) {
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    return visibleProjectOr404(ctx, caller, project_id);
  }

  /** The project, with ClickHouse enabled on it (spec §8: "We could not find any ClickHouse cluster for project {id}"). */
  async function enabledProject(caller: Caller, query: Record<string, string>) {
    const project = await projectOf(caller, query);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, 'clickhouse');
    if (!integration || !USABLE_INTEGRATION.has(integration.status)) {
      throw badRequest(`We could not find any ClickHouse cluster for project ${project.id}`, 'The ClickHouse integration may not be enabled for this project. Enable it from the stack page.');
    }
    return { project, integration };
  }

  async function clusterOr404(projectId: number, by: { id?: number; name?: string }) {
    const row = await findProjectCluster(ctx.db, projectId, by);
    if (!row || row.status === 'deleting') throw new ApiError(404, 'Not found', `We could not find the cluster ${by.name ?? by.id} in project ${projectId}.`);
    return row;
  }

  async function withProgress(row: ClusterRow) {
    if (!CLUSTER_PROGRESS_KINDS.has(row.status)) return toClusterResponse(row);
    const job = await ctx.jobs.latest(clusterSubject(row.id));
    return toClusterResponse(row, job && job.progress_max > 0 ? { current: job.progress_current, max: job.progress_max } : null);
  }

  // ---- reference data -------------------------------------------------------------------------------------------
  router.add('GET', 'regions', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, REGIONS, REFERENCE_CACHE);
  });
  router.add('GET', 'machines', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, MACHINES, REFERENCE_CACHE);
  });
  router.add('GET', 'disk-types', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { provider_slug } = decodeOrThrow(DiskTypesQuery, query);
    await projectOf(caller, query);
    sendJson(res, 200, DISK_TYPES[provider_slug], REFERENCE_CACHE);
  });
  router.add('GET', 'zones', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { provider_name, region_code } = decodeOrThrow(ZonesQuery, query);
    await projectOf(caller, query);
    const zones = provider_name === 'gcp' ? gcpZones(region_code) : [];
    sendJson(res, 200, zones.map((name) => ({ name })), REFERENCE_CACHE);
  });
  router.add('GET', 'clickhouse-versions', async ({ res }, scope) => {
    requireCaller(await scope.caller());
    sendJson(res, 200, await backend.versions(), REFERENCE_CACHE);
  });

  // ---- clusters -------------------------------------------------------------------------------------------------
  router.add('GET', 'integrations/clickhouse/clusters', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { project } = await enabledProject(caller, query);
    const rows = await listProjectClusters(ctx.db, project.id);
    const has = await projectHasPaymentMethod(ctx.db, project.id);
    const live = rows.filter((r) => r.status !== 'deleting');
    sendJson(res, 200, await Promise.all(rows.map(withProgress)), {
      // Whether POST may create another one now (spec §5: a payment method, or no non-deleting cluster yet).
      'x-cluster-creation-allowed': String(has || live.length === 0),
      'x-has-payment-method': String(has),
    });
  });

  router.add('GET', 'integrations/clickhouse/clusters/creation', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { project } = await enabledProject(caller, query);
    const has = await projectHasPaymentMethod(ctx.db, project.id);
    const live = (await listProjectClusters(ctx.db, project.id)).filter((r) => r.status !== 'deleting');
    sendJson(res, 200, { allowed: has || live.length === 0, has_payment_method: has });
  });

  router.add('POST', 'integrations/clickhouse/clusters', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { project, integration } = await enabledProject(caller, query);
    await requireWritable(caller);
    const raw = await readBody(req);
    const hasPaymentMethod = await projectHasPaymentMethod(ctx.db, project.id);
    const notAllowed = () =>
      conflict('Cluster creation is not allowed', 'Without a payment method a project can have a single ClickHouse cluster. Add a payment method to create more.');

    if ((raw as { is_external?: unknown }).is_external === true) {
      const body = decodeOrThrow(CreateExternalClusterBody, raw);
      const host = parseHost(body.host);
      if (!host) throw new ValidationError({ host: [ClusterMessage.hostInvalid] });
      // Everything that can refuse without the network runs first: a create that will be refused never connects.
      {
        const existing = (await listProjectClusters(ctx.db, project.id)).filter((r) => r.status !== 'deleting');
        if (!hasPaymentMethod && existing.length > 0) throw notAllowed();
        if (existing.some((r) => r.name === body.name)) throw new ValidationError({ name: ['A cluster with this name already exists in this project.'] });
      }
      const wait = connectAttempts.take(caller.userId);
      if (wait > 0) {
        throw new ApiError(429, 'Too many connection attempts', `At most ${attemptsPerWindow} external clusters can be tried per 10 minutes. Please try again in ${Math.ceil(wait / 60)} minute(s).`);
      }
      const rules = outboundRules(ctx.config);
      try {
        await resolveAllowed(host.host, rules);
      } catch (error) {
        if (error instanceof AddressRefused) throw new ValidationError({ host: [ClusterMessage.hostNotAllowed] });
        throw new ValidationError({ host: [ClusterMessage.couldNotConnect] });
      }
      const endpoint: ClickhouseEndpoint = { host: host.host, port: body.http_port, secure: body.secure, user: body.username, password: body.password, rules };
      const version = await connectExternal(endpoint);
      const sealed = (await backend.credentials()).seal({ username: body.username, password: body.password });
      const row = await ctx.db.transaction(async (tx) => {
        const existing = (await lockProjectClusters(tx, project.id)).filter((r) => r.status !== 'deleting');
        if (!hasPaymentMethod && existing.length > 0) throw notAllowed();
        if (existing.some((r) => r.name === body.name)) throw new ValidationError({ name: ['A cluster with this name already exists in this project.'] });
        return insertCluster(tx, {
          project_id: project.id,
          integration_id: integration.id,
          name: body.name,
          status: 'external',
          is_external: true,
          provider: 'unknown',
          region_code: null,
          machine: null,
          shards: 1,
          replicas: 1,
          disks: [],
          version,
          zonal: false,
          zones: [],
          control_plane_zone: null,
          ip_safe_list: [],
          admin_user: body.username,
          admin_password_sha256: null,
          pending_admin_secret: null,
          host: endpoint.host,
          http_port: body.http_port,
          tcp_port: body.tcp_port,
          secure: body.secure,
          external_credentials: sealed,
          created_by: caller.userId,
        });
      });
      sendJson(res, 201, { message: `The cluster ${row.name} is connected.`, cluster: toClusterResponse(row) });
      return;
    }

    const body = decodeOrThrow(createClusterBody({ hasPaymentMethod }), raw);
    const provider = body.provider as Provider;
    const versions = await backend.versions();
    checkAgainstPriceList(body, provider, hasPaymentMethod, versions);
    const zones = provider === 'gcp' ? [...(body.zones ?? [])] : [];
    const zonal = provider === 'gcp' && zones.length === gcpZones(body.region_code).length;
    const custom =
      body.machine !== DEFAULT_MACHINES[provider] || body.shards !== DEFAULT_SHARDS || body.replicas !== DEFAULT_REPLICAS || body.disks.length !== 1 || body.disks[0].size !== 150;
    const sealedPassword = (await backend.credentials()).seal({ password: body.admin_password });
    const cap = hasPaymentMethod
      ? (ctx.config.clickhouseClustersPerAccount ?? DEFAULT_CLICKHOUSE_CLUSTERS_PER_ACCOUNT)
      : (ctx.config.clickhouseClustersPerTrialAccount ?? DEFAULT_CLICKHOUSE_CLUSTERS_PER_TRIAL_ACCOUNT);
    const row = await ctx.db.transaction(async (tx) => {
      // The account's servers share one machine with every other tenant: each account gets a bounded share of it.
      const running = await lockAccountManagedClusters(tx, project);
      const existing = (await lockProjectClusters(tx, project.id)).filter((r) => r.status !== 'deleting');
      if (!hasPaymentMethod && existing.length > 0) throw notAllowed();
      if (existing.some((r) => r.name === body.name)) throw new ValidationError({ name: ['A cluster with this name already exists in this project.'] });
      if (running >= cap) {
        throw conflict(
          ClusterMessage.clusterLimitReached,
          `Your ${project.organization_id === null ? 'account' : 'organization'} can run at most ${cap} managed ClickHouse cluster${cap === 1 ? '' : 's'} at a time${hasPaymentMethod ? '' : ' without a payment method'}. Delete a cluster first${hasPaymentMethod ? '' : ', or add a payment method'}.`,
        );
      }
      const inserted = await insertCluster(tx, {
        project_id: project.id,
        integration_id: integration.id,
        name: body.name,
        status: 'creating',
        is_external: false,
        provider,
        region_code: body.region_code,
        machine: body.machine,
        shards: body.shards,
        replicas: body.replicas,
        disks: body.disks.map((d) => ({ ...d })),
        version: findVersionIn(versions, body.version)!.name,
        zonal,
        zones,
        control_plane_zone: provider === 'gcp' ? (body.control_plane_zone ?? null) : null,
        ip_safe_list: parseList(body.ip_safe_list ?? ''),
        admin_user: body.admin_user,
        admin_password_sha256: sha256Hex(body.admin_password),
        pending_admin_secret: sealedPassword,
        host: '',
        http_port: 0,
        tcp_port: 0,
        secure: false,
        external_credentials: null,
        created_by: caller.userId,
      });
      await ctx.jobs.enqueue(tx, PROVISION_JOB, { subject: clusterSubject(inserted.id), payload: { clusterId: inserted.id }, maxAttempts: 1 });
      // Spec §4: a custom-configured cluster ends the ClickHouse free trial.
      if (custom && integration.status === 'trial') await tx.query("UPDATE integrations SET status = 'active', trial_ends_at = NULL WHERE id = $1", [integration.id]);
      return inserted;
    });
    sendJson(res, 201, { message: `The cluster ${row.name} is being created.`, cluster: toClusterResponse(row) });
  });

  router.add('DELETE', 'integrations/clickhouse/clusters', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { cluster_id } = decodeOrThrow(ClusterQuery, query);
    const { project } = await enabledProject(caller, query);
    await requireWritable(caller);
    const row = await clusterOr404(project.id, { id: cluster_id });
    if (row.status === 'creating') {
      // Only while its job is still queued or running: a row left `creating` by a job that ended can be deleted.
      const job = await ctx.jobs.latest(clusterSubject(row.id));
      if (job && (job.status === 'queued' || job.status === 'running')) {
        throw conflict('The cluster is being created', 'A cluster cannot be deleted while it is being created. Try again when it is active or failed.');
      }
    }
    if (row.is_external) {
      await ctx.db.query('DELETE FROM clickhouse_clusters WHERE id = $1', [row.id]);
      sendJson(res, 200, { message: `The cluster ${row.name} has been disconnected.` });
      return;
    }
    await ctx.db.transaction((tx) => backend.scheduleDeletion(tx, row));
    sendJson(res, 202, { message: `The cluster ${row.name} is being deleted.` });
  });

  router.add('PATCH', 'integrations/clickhouse/clusters', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { cluster_id } = decodeOrThrow(ClusterQuery, query);
    const { project } = await enabledProject(caller, query);
    await requireWritable(caller);
    const body = decodeOrThrow(IpSafeListBody, await readBody(req));
    const found = await clusterOr404(project.id, { id: cluster_id });
    if (found.is_external) throw badRequest('The IP safe list of an external cluster cannot be changed here', 'An external cluster runs on your own servers: change its allowed networks there.');
    const entries = body.ip_list.map((s) => s.trim()).filter((s) => s !== '');
    // One change of this cluster at a time, each from the row as the previous change left it (a merge would
    // otherwise start from a stale list, and the files of one change could overtake another's).
    const { row, list } = await backend.serialize(found.id, async () => {
      const row = await clusterOr404(project.id, { id: cluster_id });
      if (row.status !== 'active') throw conflict('The cluster is not active', 'The IP safe list can be changed once the cluster is active.');
      const list = body.replace ? [...new Set(entries)] : [...new Set([...row.ip_safe_list, ...entries])];
      await setIpSafeList(ctx.db, row.id, list);
      try {
        await backend.provisioner.applyIpSafeList({ ...planOf(row), ipSafeList: list });
      } catch (error) {
        // Leave the data and the files as they were when the servers could not be given the new list.
        await setIpSafeList(ctx.db, row.id, row.ip_safe_list);
        await backend.provisioner.applyIpSafeList(planOf(row)).catch(() => undefined);
        throw error;
      }
      return { row, list };
    });
    sendJson(res, 200, { message: 'The IP safe list has been updated.', cluster: toClusterResponse({ ...row, ip_safe_list: list }) });
  });

  // ---- metadata and metrics -------------------------------------------------------------------------------------
  async function readableCluster(caller: Caller, query: Record<string, string>, name: string) {
    const { project } = await enabledProject(caller, query);
    const row = await clusterOr404(project.id, { name });
    if (row.status !== 'active' && row.status !== 'external') {
      throw conflict('The cluster is not available', 'Metrics are available only for active or external clusters.');
    }
    return row;
  }

  /** One target per server process (nodes that share a process are read once), as host:port. */
  async function targetsOf(row: ClusterRow): Promise<{ nodes: { shard: number; replica: number; host: string }[]; targets: MetricsTarget[] }> {
    if (row.is_external) {
      const { username, password } = (await backend.credentials()).open<{ username: string; password: string }>(row.external_credentials!);
      const host = `${row.host}:${row.http_port}`;
      return {
        nodes: [{ shard: 1, replica: 1, host }],
        targets: [{ host, endpoint: { host: row.host, port: row.http_port, secure: row.secure, user: username, password, rules: outboundRules(ctx.config) }, dataDir: null, diskType: 'external' }],
      };
    }
    const nodes = await backend.provisioner.nodes(row.id);
    if (nodes.length === 0) return { nodes: [], targets: [] };
    const credentials = await backend.provisioner.platformCredentials(row.id);
    const targets = new Map<string, MetricsTarget>();
    for (const n of nodes) {
      const host = `${n.host}:${n.httpPort}`;
      if (!targets.has(host)) targets.set(host, { host, endpoint: { host: n.host, port: n.httpPort, ...credentials }, dataDir: n.dataDir, diskType: row.disks[0]?.type ?? 'local' });
    }
    return { nodes: nodes.map((n) => ({ shard: n.shard, replica: n.replica, host: `${n.host}:${n.httpPort}` })), targets: [...targets.values()] };
  }

  router.add('GET', 'clusters/:name/metadata', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const row = await readableCluster(caller, query, params.name);
    const { nodes, targets } = await targetsOf(row);
    const metadata = await unreachableAs502(row, () => readMetadata(nodes, targets.map((t) => t.endpoint), { shards: row.shards, replicas: row.replicas }));
    sendJson(res, 200, metadata);
  });

  router.add('GET', 'clusters/:name/metrics', async ({ res, query, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const q = decodeOrThrow(MetricsQuery, query);
    const row = await readableCluster(caller, query, params.name);
    const now = Math.floor(Date.now() / 1000);
    const end = q.end_time ?? now;
    const start = q.start_time ?? end - 3600;
    if (!(start < end) || end - start > 31 * 86_400) throw new ValidationError({ start_time: ['The time range must start before it ends and span at most 31 days.'] });
    const wanted = parseList(q.nodes ?? '');
    const { targets } = await targetsOf(row);
    const selected = wanted.length > 0 ? targets.filter((t) => wanted.includes(t.host)) : targets;
    const metrics = await unreachableAs502(row, () => readMetrics(selected, { start, end, databases: parseList(q.databases ?? ''), excludeUser: row.is_external ? null : INTERNAL_USER }));
    sendJson(res, 200, metrics);
  });
}

const parseList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * A cluster that did not answer: 502. For an external cluster ClickHouse's own message is the customer's server
 * talking; for a managed one it would name the platform's internal user and paths, so only its code is passed on.
 */
async function unreachableAs502<T>(row: ClusterRow, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ClickhouseError)) throw error;
    const detail = row.is_external ? error.message : error.code === 0 ? 'a server of the cluster is not running.' : `ClickHouse error code ${error.code}.`;
    throw new ApiError(502, 'We encountered an error while fetching some data.', `The cluster did not answer: ${detail}`);
  }
}

/** The checks that need the price list (known region, machine, version, disk types and zones of the provider). */
function checkAgainstPriceList(body: CreateClusterBody, provider: Provider, hasPaymentMethod: boolean, versions: readonly ClickhouseVersion[]): void {
  const errors: FieldErrors = {};
  if (!findRegion(provider, body.region_code)) errors.region_code = [`The region ${body.region_code} is not offered on ${provider}.`];
  if (!findMachine(provider, body.machine)) errors.machine = [`The machine ${body.machine} is not offered on ${provider}.`];
  if (!findVersionIn(versions, body.version)) {
    errors.version = [versions.length === 0 ? 'No ClickHouse version can be run by this installation.' : `The version ${body.version} is not offered.`];
  }
  body.disks.forEach((disk, i) => {
    if (!findDiskType(provider, disk.type)) errors[`disks.${i}.type`] = [`The disk type ${disk.type} is not offered on ${provider}.`];
  });
  if (!hasPaymentMethod && body.disks[0] && (body.disks[0].type !== DEFAULT_DISK_TYPES[provider] || body.disks[0].name !== DEFAULT_DISK_NAME)) {
    errors.disks = [ClusterMessage.trialDefaultOnly];
  }
  if (provider === 'gcp') {
    const offered = gcpZones(body.region_code);
    const unknown = (body.zones ?? []).filter((z) => !offered.includes(z));
    if (unknown.length > 0) errors.zones = [`The zones ${unknown.join(', ')} are not in the region ${body.region_code}.`];
    const all = offered.length > 0 && (body.zones ?? []).length === offered.length;
    if (body.zonal !== undefined && Boolean(body.zonal) !== all) errors.zonal = ['The zonal flag is 1 exactly when all the zones of the region are selected.'];
  }
  // The total size is never below a byte count the servers could not hold (guards absurd values past the rules).
  if (body.disks.some((d) => diskSizeBytes(d.size, d.unit_type) > 1e18)) errors.disks = ['Disks can be at most 1 EB in size.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** SELECT version() on an external cluster, with a message that says what went wrong. */
/**
 * SELECT version() on an external cluster. Every failure gets the same answer: telling a closed port from a server
 * that refused the user, or an unknown user from a wrong password, would make this a scanner and a guesser.
 */
async function connectExternal(endpoint: ClickhouseEndpoint): Promise<string> {
  try {
    const [row] = await clickhouseQuery<{ v: string }>(endpoint, 'SELECT version() AS v', { timeoutMs: 5_000 });
    if (typeof row?.v !== 'string' || !/^\d+\.\d+/.test(row.v)) throw new ClickhouseError('not a ClickHouse answer', 0);
    return row.v;
  } catch {
    // A JSON parse error (some other HTTP server answered) is the same "could not connect".
    throw new ValidationError({ host: [ClusterMessage.couldNotConnect] });
  }
}
