import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProjectIdQuery } from '../../../contract/common';
import {
  AddGrafanaUsersBody,
  AutoAddBody,
  CLICKHOUSE_DATASOURCE_CREATED_MESSAGE,
  CreateDashboardsBody,
  CreateDatasourceBody,
  DASHBOARDS_CREATED_MESSAGE,
  DATASOURCES_CREATED_MESSAGE,
  EXPORT_DEFAULT_FILENAME,
  NAME_TAKEN_MESSAGE,
  ORGANIZATION_MODE_MESSAGE,
  USERS_ADDED_MESSAGE,
  autoAddMessage,
  clickhouseDashboardTitle,
  configLoadErrorMessage,
  validateDashboardsBody,
  validateDatasourceBody,
  validateUsersBody,
  type GrafanaConfig,
  type GrafanaDatasource,
  type GrafanaUser,
  type QrynDatasources,
} from '../../../contract/grafana';
import { projectSlug } from '../../../contract/projects';
import type { ApiContext, ApiRouter } from '../../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../../route-kit/caller';
import { ApiError, ValidationError, badRequest, decodeOrThrow, readBody, sendJson } from '../../route-kit/http';
import { visibleProjectOr404 } from '../../route-kit/project-access';
import type { Queryable } from '../../db/database';
import { findProjectCluster } from '../../db/repositories/clickhouse-repository';
import { addIntegrationUser, findProjectIntegration, type IntegrationRow } from '../../db/repositories/integrations-repository';
import { findMembership } from '../../db/repositories/memberships-repository';
import { listProjectUsers, type ProjectRow } from '../../db/repositories/projects-repository';
import { loadCredentialBox, type CredentialBox } from '../clickhouse/credentials';
import { cacheUntilRejected } from '../cache-until-rejected';
import type { ProductBackend } from '../../route-kit/product-backend';
import type { ProductPlatform } from '../product-factory';
import { GrafanaApiError, NameTakenError, httpGrafana, localGrafana, type DatasourceModel, type GrafanaAdapter, type GrafanaRole } from './grafana-api';
import { clickhouseDatasource, clusterDashboard, dashboardsZip, newUid, provisioningFiles, qrynDatasource, zipFiles } from './grafana-models';
import {
  deleteIntegrationState,
  findConfig,
  insertDatasource,
  listDashboards,
  listDatasources,
  listGrafanaUsers,
  saveAutoAdd,
  upsertDashboard,
  type DatasourceRow,
} from './grafana-repository';

// Grafana's back end (spec 001 §7 Grafana) under /api/integrations/grafana/: the project's datasources pointed at its
// qryn instance and ClickHouse clusters, dashboards for clusters, the Grafana users, the dashboards export and the
// provisioning files. Everything Grafana is given goes through the adapter (grafana-api.ts; docs/grafana.md).

const USABLE = new Set(['trial', 'active', 'scheduled_for_cancellation']);
const REMOVE_JOB = 'grafana.remove';
const QRYN_KINDS = ['loki', 'prometheus', 'tempo'] as const;

export interface GrafanaBackend extends ProductBackend {
  readonly adapter: GrafanaAdapter;
}

export function createGrafanaBackend(platform: ProductPlatform, options: { adapter?: GrafanaAdapter } = {}): GrafanaBackend {
  const adapter =
    options.adapter ??
    (platform.config.grafanaUrl && platform.config.grafanaToken
      ? httpGrafana({ url: platform.config.grafanaUrl, token: platform.config.grafanaToken, publicUrl: platform.config.grafanaPublicUrl })
      : localGrafana());
  // A load that failed (the database away for a moment) is tried again by the next call, not cached for good.
  const credentials: () => Promise<CredentialBox> = cacheUntilRejected(() => loadCredentialBox(platform.db));

  const grafanaError = (error: unknown): never => {
    if (error instanceof GrafanaApiError) throw new ApiError(502, 'Grafana refused the request', `Grafana answered: ${error.message}`);
    throw error;
  };

  async function projectOf(ctx: ApiContext, caller: Caller, query: Record<string, string>): Promise<ProjectRow> {
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    return visibleProjectOr404(ctx, caller, project_id);
  }

  /** The project's Grafana integration, usable now; `write` also refuses read-only members (403). */
  async function integrationOf(ctx: ApiContext, caller: Caller, query: Record<string, string>, access: 'read' | 'write') {
    const project = await projectOf(ctx, caller, query);
    if (access === 'write') await requireWritable(caller);
    const integration = await findProjectIntegration(ctx.db, caller.userId, project.id, 'grafana');
    if (!integration || !USABLE.has(integration.status)) {
      throw badRequest(configLoadErrorMessage(project.id), 'Grafana may not be enabled for this project. Enable it from the stack page.');
    }
    return { project, integration };
  }

  const toDatasource = (row: DatasourceRow): GrafanaDatasource => ({
    id: row.remote_id,
    org_id: row.org_id,
    uid: row.uid,
    name: row.name,
    type: row.type,
    url: row.url,
    cluster_id: row.cluster_id,
  });

  /** Creates datasources in Grafana and records them; on a failure, the ones already made in Grafana are removed. */
  async function createDatasources(
    tx: Queryable,
    integration: IntegrationRow,
    items: { kind: DatasourceRow['kind']; clusterId: number | null; model: DatasourceModel; field: string }[],
  ): Promise<string[]> {
    const box = await credentials(); // loaded before the transaction began (see the route)
    const made: string[] = [];
    try {
      for (const item of items) {
        let created;
        try {
          created = await adapter.createDatasource(tx, item.model);
        } catch (error) {
          if (error instanceof NameTakenError) throw new ValidationError({ [item.field]: [NAME_TAKEN_MESSAGE] });
          throw error;
        }
        made.push(created.uid);
        const { secureJsonData, ...model } = item.model;
        await insertDatasource(tx, {
          integration_id: integration.id,
          project_id: integration.project_id,
          kind: item.kind,
          cluster_id: item.clusterId,
          uid: created.uid,
          name: item.model.name,
          type: item.model.type,
          url: item.model.url,
          remote_id: created.id,
          org_id: created.orgId,
          model: { ...model, uid: created.uid },
          secure_sealed: secureJsonData ? box.seal(secureJsonData) : null,
        });
      }
      return made;
    } catch (error) {
      for (const uid of made) await adapter.deleteDatasource(uid).catch(() => undefined);
      if (error instanceof GrafanaApiError) grafanaError(error);
      throw error;
    }
  }

  /** The Grafana role of a platform user: the enabler is Admin, read-only members view, everyone else edits. */
  async function roleOf(db: Queryable, project: ProjectRow, userId: string): Promise<GrafanaRole> {
    if (project.organization_id === null) return 'Admin';
    const membership = await findMembership(db, project.organization_id, userId);
    return membership?.read_only ? 'Viewer' : membership?.owner ? 'Admin' : 'Editor';
  }

  /** Adds project members to the Grafana users (in Grafana first, then the list), skipping those already listed. */
  async function addUsers(db: Queryable, project: ProjectRow, integration: IntegrationRow, users: readonly { id: string; email: string; name: string }[]): Promise<number> {
    const listed = new Set((await listGrafanaUsers(db, integration.id)).map((u) => u.user_id));
    let added = 0;
    for (const user of users) {
      if (listed.has(user.id)) continue;
      const role = await roleOf(db, project, user.id);
      await adapter.addOrgUser({ email: user.email, name: user.name, role }).catch(grafanaError);
      await addIntegrationUser(db, integration.id, user.id, role === 'Admin' ? 'admin' : 'user');
      added += 1;
    }
    return added;
  }

  async function autoAdd(db: Queryable, project: ProjectRow, integration: IntegrationRow): Promise<void> {
    const members = await listProjectUsers(db, project.id);
    await addUsers(db, project, integration, members.map((m) => ({ id: m.id, email: m.email, name: `${m.given_name} ${m.family_name}`.trim() })));
  }

  /** The dashboards as Grafana has them now (HTTP mode), or as recorded (local mode). */
  async function currentDashboards(db: Queryable, integrationId: number) {
    const rows = await listDashboards(db, integrationId);
    const models = [];
    for (const row of rows) models.push((await adapter.getDashboard(row.uid).catch(grafanaError)) ?? row.model);
    return models;
  }

  function sendZip(res: ServerResponse, body: Uint8Array, filename: string): void {
    res.writeHead(200, {
      'content-type': 'application/zip',
      'content-length': String(body.byteLength),
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(Buffer.from(body));
  }

  async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
    const body = await readBody(req);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Invalid request', 'The body must be a JSON object.');
    return body as Record<string, unknown>;
  }

  const backend: GrafanaBackend = {
    slug: 'grafana',
    adapter,
    // Enabled directly; the enabler is added as the first Grafana user by the stack (integration_users).
    async enable(tx, request) {
      await tx.query('INSERT INTO grafana_configs (integration_id) VALUES ($1) ON CONFLICT (integration_id) DO NOTHING', [request.integrationId]);
      return {};
    },
    async release(tx, { integrationId }) {
      const removed = await deleteIntegrationState(tx, integrationId);
      if (adapter.mode === 'http' && removed.datasources.length + removed.dashboards.length > 0) {
        await platform.jobs.enqueue(tx, REMOVE_JOB, { subject: `grafana:${integrationId}`, payload: removed });
      }
    },
    async start() {
      platform.jobs.register(REMOVE_JOB, async ({ job }) => {
        const payload = job.payload as { datasources: string[]; dashboards: string[] };
        for (const uid of payload.dashboards) await adapter.deleteDashboard(uid);
        for (const uid of payload.datasources) await adapter.deleteDatasource(uid);
        return { removed: payload.datasources.length + payload.dashboards.length };
      });
      platform.services.register({ slug: 'grafana', name: 'Grafana' }, adapter.mode === 'http' ? 'Grafana API' : 'Provisioning store', () => adapter.healthy());
    },
    registerRoutes(router: ApiRouter, ctx: ApiContext) {
      router.add('GET', 'integrations/grafana/config', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { project, integration } = await integrationOf(ctx, caller, query, 'read');
        const config: GrafanaConfig = {
          id: integration.id,
          project_id: project.id,
          auto_add_users: (await findConfig(ctx.db, integration.id)).auto_add_users,
          grafana_url: adapter.publicUrl,
          mode: adapter.mode,
        };
        sendJson(res, 200, config);
      });

      router.add('GET', 'integrations/grafana/datasources', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { integration } = await integrationOf(ctx, caller, query, 'read');
        sendJson(res, 200, (await listDatasources(ctx.db, integration.id)).map(toDatasource));
      });

      router.add('GET', 'integrations/grafana/qryn-datasources', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { integration } = await integrationOf(ctx, caller, query, 'read');
        const rows = await listDatasources(ctx.db, integration.id);
        const of = (kind: string) => rows.find((r) => r.kind === kind && r.cluster_id === null);
        const [loki, prom, tempo] = [of('loki'), of('prometheus'), of('tempo')];
        const answer: QrynDatasources =
          loki && prom && tempo
            ? { prom_uid: prom.uid, prom_name: prom.name, tempo_uid: tempo.uid, tempo_name: tempo.name, cloki_uid: loki.uid, qryn_loki_name: loki.name }
            : null;
        sendJson(res, 200, answer);
      });

      router.add('POST', 'integrations/grafana/datasources', async ({ req, res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const body = decodeOrThrow(CreateDatasourceBody, await bodyOf(req));
        const errors = validateDatasourceBody(body);
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const { project, integration } = await integrationOf(ctx, caller, query, 'write');
        // Before the transaction: the embedded database has one connection and the box reads its key outside it.
        await credentials();
        if (body.type === 'qryn') {
          const qryn = ctx.products.get('qryn');
          const uids = await ctx.db.transaction(async (tx) => {
            // Under the integration's row lock: two submits cannot both create the set.
            await tx.query('SELECT id FROM integrations WHERE id = $1 FOR UPDATE', [integration.id]);
            if ((await listDatasources(tx, integration.id)).some((r) => r.cluster_id === null)) {
              throw new ApiError(409, 'The qryn datasources already exist', 'Grafana already has the qryn datasources of this project.');
            }
            const target = await qryn?.readTarget?.(tx, project.id, 'Grafana');
            if (!target) throw badRequest('qryn is not enabled for this project', 'Enable qryn in this project first: its datasources point at the project\'s qryn instance.');
            const related = { lokiUid: newUid('qryn-loki'), promUid: newUid('qryn-prom'), tempoUid: newUid('qryn-tempo') };
            const names = { loki: body.loki_name!.trim(), prometheus: body.prometheus_name!.trim(), tempo: body.tempo_name!.trim() };
            const fields = { loki: 'loki_name', prometheus: 'prometheus_name', tempo: 'tempo_name' };
            return createDatasources(
              tx,
              integration,
              QRYN_KINDS.map((kind) => ({
                kind,
                clusterId: null,
                field: fields[kind],
                model: qrynDatasource(kind, { name: names[kind], url: target.url, user: target.apiKey, password: target.apiSecret, related }),
              })),
            );
          });
          sendJson(res, 201, { message: DATASOURCES_CREATED_MESSAGE, uids });
          return;
        }
        const cluster = await findProjectCluster(ctx.db, project.id, { id: body.cluster_id! });
        if (!cluster || (cluster.status !== 'active' && cluster.status !== 'external')) {
          throw new ValidationError({ cluster_id: ['This cluster is not available: choose an active cluster of this project.'] });
        }
        const external = cluster.external_credentials ? (await credentials()).open<{ username: string; password: string }>(cluster.external_credentials) : undefined;
        const uids = await ctx.db.transaction(async (tx) => {
          await tx.query('SELECT id FROM integrations WHERE id = $1 FOR UPDATE', [integration.id]);
          if ((await listDatasources(tx, integration.id)).some((r) => r.cluster_id === cluster.id)) {
            throw new ValidationError({ cluster_id: ['Grafana already has a datasource for this cluster.'] });
          }
          const model = clickhouseDatasource({
            uid: newUid('clickhouse'),
            name: body.name!.trim(),
            host: cluster.host,
            port: cluster.http_port,
            secure: cluster.secure,
            username: external?.username ?? cluster.admin_user,
            password: external?.password,
          });
          return createDatasources(tx, integration, [{ kind: 'clickhouse', clusterId: cluster.id, field: 'name', model }]);
        });
        sendJson(res, 201, { message: CLICKHOUSE_DATASOURCE_CREATED_MESSAGE, uids });
      });

      router.add('GET', 'integrations/grafana/dashboards', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { integration } = await integrationOf(ctx, caller, query, 'read');
        const rows = await listDashboards(ctx.db, integration.id);
        sendJson(res, 200, rows.map((r) => ({ uid: r.uid, title: r.title, cluster_id: r.cluster_id, version: r.version, url: r.url })));
      });

      router.add('POST', 'integrations/grafana/dashboards', async ({ req, res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const body = decodeOrThrow(CreateDashboardsBody, await bodyOf(req));
        const errors = validateDashboardsBody(body);
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const { project, integration } = await integrationOf(ctx, caller, query, 'write');
        const datasources = await listDatasources(ctx.db, integration.id);
        const plans = [];
        for (const clusterId of new Set(body.product_clickhouse_clusters)) {
          const cluster = await findProjectCluster(ctx.db, project.id, { id: clusterId });
          if (!cluster) throw new ValidationError({ product_clickhouse_clusters: [`There is no cluster ${clusterId} in this project.`] });
          const datasource = datasources.find((d) => d.cluster_id === cluster.id);
          if (!datasource) throw new ValidationError({ product_clickhouse_clusters: [`Add a ClickHouse datasource for ${cluster.name} first.`] });
          plans.push({ cluster, datasource });
        }
        const existing = await listDashboards(ctx.db, integration.id);
        const uids: string[] = [];
        for (const { cluster, datasource } of plans) {
          const previous = existing.find((d) => d.cluster_id === cluster.id);
          const dashboard = clusterDashboard({
            uid: previous?.uid ?? newUid('ch-overview'),
            title: clickhouseDashboardTitle(project.name, cluster.name),
            project: project.name,
            cluster: cluster.name,
            datasourceUid: datasource.uid,
            version: previous?.version,
          });
          const saved = await adapter.saveDashboard(ctx.db, dashboard, 'Created by the console').catch(grafanaError);
          await upsertDashboard(ctx.db, {
            integration_id: integration.id,
            project_id: project.id,
            cluster_id: cluster.id,
            uid: saved.uid,
            title: dashboard.title,
            version: saved.version,
            remote_id: saved.id,
            url: saved.url,
            model: { ...dashboard, id: null, version: saved.version },
          });
          uids.push(saved.uid);
        }
        sendJson(res, 201, { message: DASHBOARDS_CREATED_MESSAGE, uids });
      });

      router.add('GET', 'integrations/grafana/export-dashboards', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { project, integration } = await integrationOf(ctx, caller, query, 'read');
        const dashboards = await currentDashboards(ctx.db, integration.id);
        sendZip(res, dashboardsZip(dashboards), EXPORT_DEFAULT_FILENAME.replace('.zip', `-${projectSlug(project.name, project.id)}.zip`));
      });

      // Local mode's output: the provisioning files a Grafana would be started with (they carry the datasources'
      // credentials, so only people who may change the project get them).
      router.add('GET', 'integrations/grafana/provisioning', async ({ res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const { project, integration } = await integrationOf(ctx, caller, query, 'write');
        const sealed = await credentials();
        const rows = await listDatasources(ctx.db, integration.id);
        const datasources = rows.map((r) => ({ ...r.model, ...(r.secure_sealed ? { secureJsonData: sealed.open<Record<string, string>>(r.secure_sealed) } : {}) }) as DatasourceModel);
        const slug = projectSlug(project.name, project.id);
        const files = provisioningFiles({ projectSlug: slug, projectName: project.name, orgId: rows[0]?.org_id ?? 1, datasources, dashboards: await currentDashboards(ctx.db, integration.id) });
        sendZip(res, zipFiles(files), `grafana-provisioning-${slug}.zip`);
      });

      // With auto-add on, the project's new members join the list when it is read (docs/grafana.md).
      router.add(
        'GET',
        'integrations/grafana/users',
        async ({ res, query }, scope) => {
          const caller = requireCaller(await scope.caller());
          const { project, integration } = await integrationOf(ctx, caller, query, 'read');
          if ((await findConfig(ctx.db, integration.id)).auto_add_users) await autoAdd(ctx.db, project, integration);
          const orgId = (await listDatasources(ctx.db, integration.id))[0]?.org_id ?? 1;
          const users: GrafanaUser[] = (await listGrafanaUsers(ctx.db, integration.id)).map((u) => ({
            name: `${u.given_name} ${u.family_name}`.trim() || u.email,
            email: u.email,
            user_id: u.user_id,
            org_id: orgId,
          }));
          sendJson(res, 200, users);
        },
        { readOnly: false },
      );

      router.add('POST', 'integrations/grafana/users', async ({ req, res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const raw = await bodyOf(req);
        const body = decodeOrThrow(AddGrafanaUsersBody, raw);
        const projectQuery = query.project_id !== undefined ? query : { project_id: String(body.project_id ?? '') };
        if (caller.organizationId === null) throw new ApiError(403, 'Organization mode only', ORGANIZATION_MODE_MESSAGE);
        const errors = validateUsersBody(body);
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const { project, integration } = await integrationOf(ctx, caller, projectQuery, 'write');
        const members = new Map((await listProjectUsers(ctx.db, project.id)).map((m) => [m.id, m]));
        const strangers = body.users.filter((u) => !members.has(u.id));
        if (strangers.length > 0) throw new ValidationError({ users: ['Only members of this project can be added to Grafana.'] });
        const added = await ctx.db.transaction((tx) =>
          addUsers(tx, project, integration, body.users.map((u) => ({ id: u.id, email: members.get(u.id)!.email, name: u.name || members.get(u.id)!.email }))),
        );
        sendJson(res, 201, { message: USERS_ADDED_MESSAGE, added });
      });

      router.add('POST', 'integrations/grafana/auto-add', async ({ req, res, query }, scope) => {
        const caller = requireCaller(await scope.caller());
        const body = decodeOrThrow(AutoAddBody, await bodyOf(req));
        const { project, integration } = await integrationOf(ctx, caller, query, 'write');
        await ctx.db.transaction(async (tx) => {
          await saveAutoAdd(tx, integration.id, body.enabled);
          if (body.enabled) await autoAdd(tx, project, integration);
        });
        sendJson(res, 200, { message: autoAddMessage(body.enabled), enabled: body.enabled });
      });
    },
  };
  return backend;
}

export const grafanaProductFactory = (platform: ProductPlatform): ProductBackend => createGrafanaBackend(platform);
