import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeInput } from '../../../contract/common';
import { QrynEnableBody } from '../../../contract/stack';
import { ApiError, ValidationError } from '../../route-kit/http';
import type { Queryable } from '../../db/database';
import type { EnableRequest, EnableResult, ProductBackend } from '../../route-kit/product-backend';
import type { ProductPlatform } from '../product-factory';
import { createGateway, type Gateway } from './gateway/gateway';
import { createLiveTail, type LiveTail } from './read/loki-tail';
import { createWriter, type Writer } from './ingest/writer';
import { findInstance, findInstanceOfIntegration, findInstanceOfProject, insertToken, hashSecret, insertInstance, listInstances, deleteInstance, type QrynInstanceRow } from './instances/qryn-repository';
import { registerQrynRoutes } from './qryn-routes';
import { HttpError } from './http/gateway-http';
import { sessionAuthenticator } from './gateway/gateway-session';
import { createInstanceSchema, databaseOf, dropInstanceSchema } from './storage/schema';
import { enforceRetention } from './storage/stats';
import { StorageError, storageClient, type StorageClient } from './storage/storage-client';
import { storageUnavailable } from './storage/storage-availability';
import { scheduleRecurringJob } from '../../jobs/recurring-job';
import { scrapeInstrumented } from './instrumentation';
import { closeLogqlWorkers } from './read/loki-api';
import { closePromqlWorkers } from './read/prometheus-api';
import { createStorageResolver, sharedRegion, sharedResourceId, DEFAULT_RETENTION_POLICY_ID, RETENTION_POLICIES, writerRegions, type ProjectClusterSource, type StorageResolver } from './storage/storage-resolver';
import { startStorageServer, type SharedStorage } from './storage/storage-server';
import { connectExternalStorage } from './storage/external-storage';
import { checkExternalStorage } from './storage/external-storage-check';
import { localInstanceEvents } from '../../coordination/instance-events';
import { clickhouseProjectClusters } from '../clickhouse/project-cluster-source';

// qryn's back end: the shared storage server (started with the platform), the instances (one ClickHouse database
// each, with an API key and secret), the ingestion gateway under /qryn/{instanceId}/ and the qryn API calls.

export const QRYN_PRODUCT = { slug: 'qryn', name: 'qryn' } as const;
const RETENTION_JOB = 'qryn.retention';
const DROP_JOB = 'qryn.drop-database';
const RETENTION_SUBJECT = 'qryn:retention';
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const INSTRUMENTATION_JOB = 'qryn.instrumentation-scrape';
const INSTRUMENTATION_SUBJECT = 'qryn:instrumentation';
const INSTRUMENTATION_INTERVAL_MS = 60_000;
/** The instance-events topic of qryn's caches (server/coordination/instance-events.ts). */
const INVALIDATE_EVENT = 'qryn.invalidate';

export interface QrynBackend extends ProductBackend {
  readonly gateway: Gateway;
  /** Loki's live tail over WebSocket (loki-tail.ts). */
  readonly liveTail: LiveTail;
  readonly writer: Writer;
  readonly resolver: StorageResolver;
  /** The shared storage: the embedded server, or an existing ClickHouse (QRYN_CLICKHOUSE_URL); undefined before start or after close. */
  storageServer(): SharedStorage | undefined;
  storageOf(instance: QrynInstanceRow): Promise<StorageClient>;
  /** The instance URL that the console shows and clients push to. */
  instanceUrl(instanceId: string): string;
  /**
   * Forget cached credentials, lookups and remembered series of an instance (after rotation, deletion, limit change)
   * in this process and, through PostgreSQL NOTIFY, in every other platform instance (with `tx`: when it commits).
   */
  invalidate(instanceId?: string, tx?: Queryable): Promise<void>;
  /** Runs retention over every instance now (the scheduled job calls this). */
  runRetention(): Promise<string[]>;
  /** Scrapes every instrumented ClickHouse cluster once (the scheduled job calls this every minute). */
  runInstrumentation(): Promise<{ scraped: number; failed: number }>;
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** An enable's storage work, done before the integration's transaction (prepareEnable). */
interface QrynPrepared {
  id: string;
  database: string;
  body: { cluster_id: string; writer_region_code: string; multi_org?: boolean };
  policy: (typeof RETENTION_POLICIES)[number];
  client: StorageClient;
}

export const newApiKey = () => `qk_${randomBytes(12).toString('hex')}`;
export const newSecret = () => `qs_${randomBytes(24).toString('base64url')}`;
export const newToken = () => `qt_${randomBytes(24).toString('base64url')}`;

export function createQrynBackend(platform: ProductPlatform, options: { projectClusters?: ProjectClusterSource } = {}): QrynBackend {
  let server: SharedStorage | undefined;
  const events = platform.events ?? localInstanceEvents();
  const clients = new Map<string, StorageClient>();
  const resolver = createStorageResolver(() => server, options.projectClusters);
  const writer = createWriter(() => platform.clock.nowMs());
  const nowMs = () => platform.clock.nowMs();

  async function storageOf(instance: { project_id: number; cluster_id: string }, db?: Queryable): Promise<StorageClient> {
    const endpoint = await resolver.resolve(instance.project_id, instance.cluster_id, db);
    if (!endpoint) throw new StorageError(`The storage ${instance.cluster_id} is not available.`, 503, undefined);
    const key = `${endpoint.url}|${endpoint.user}|${endpoint.password}`;
    let client = clients.get(key);
    if (!client) clients.set(key, (client = storageClient(endpoint)));
    return client;
  }

  const gateway = createGateway({ db: platform.db, writer, storage: storageOf, storageReady: async () => (server ? server.ping() : false), nowMs, log: platform.log });
  // Another platform instance changed an instance's credentials, switches or limit (or notifications were missed:
  // `undefined`, then everything is forgotten).
  events.subscribe(INVALIDATE_EVENT, (message) => {
    gateway.invalidate();
    const instanceId = typeof message?.instanceId === 'string' ? message.instanceId : undefined;
    if (instanceId) writer.forget(instanceId);
    else if (!message) {
      void listInstances(platform.db).then(
        (rows) => rows.forEach((row) => writer.forget(row.id)),
        () => undefined,
      );
    }
  });
  const liveTail = createLiveTail({ authorize: (req, id) => gateway.authorizeRead(req, id), storage: storageOf, nowMs, log: platform.log, recheckMs: gateway.limits.authCacheMs });

  async function scopedTarget(db: Queryable, projectId: number, name: string, scope: 'read' | 'write') {
    const instance = await findInstanceOfProject(db, projectId);
    if (!instance) return undefined;
    const token = newToken();
    await insertToken(db, { instanceId: instance.id, name, scope, token, creatorUserId: null });
    return { url: `${platform.config.publicUrl}${gateway.prefix}/${instance.id}`, apiKey: instance.api_key, apiSecret: token };
  }

  async function runRetention(): Promise<string[]> {
    const today = new Date(nowMs()).toISOString().slice(0, 10);
    const dropped: string[] = [];
    // One instance whose storage errors (down, paused, refusing) must not keep the others' old data on disk: each
    // is handled on its own, and the failures are logged and left for the next pass.
    for (const instance of await listInstances(platform.db)) {
      try {
        const client = await storageOf(instance).catch(() => undefined);
        if (!client) continue;
        for (const part of await enforceRetention(client, instance.database_name, instance.ttl_days, today)) dropped.push(`${instance.id}:${part}`);
      } catch (error) {
        platform.log(`[qryn] retention of instance ${instance.id} failed, left for the next pass: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
      }
    }
    if (dropped.length > 0) platform.log(`[qryn] retention dropped ${dropped.length} partitions`);
    return dropped;
  }

  /**
   * Checks the show-config input and creates the instance's database and five tables on its storage (tens of
   * milliseconds on a healthy server; the stack calls this before its transaction, so a slow one holds nothing else).
   * A storage that cannot be reached answers 503 (retry later), one that refuses answers 422 on cluster_id.
   */
  async function prepare(db: Queryable, request: Omit<EnableRequest, 'integrationId' | 'prepared'>): Promise<QrynPrepared> {
    const outcome = decodeInput(QrynEnableBody, request.input);
    if (!outcome.ok) throw new ValidationError(outcome.errors);
    const body = outcome.value;
    const errors: Record<string, string[]> = {};
    const resources = await resolver.resources(request.projectId, db);
    if (!resources.some((r) => r.clickhouse_cluster_id === body.cluster_id)) errors.cluster_id = ['Please select where the data will be stored.'];
    if (!writerRegions().some((r) => r.code === body.writer_region_code)) errors.writer_region_code = ['Please select from where qryn data will be ingested'];
    const policy = RETENTION_POLICIES.find((p) => p.id === (body.ttl_addon_id || DEFAULT_RETENTION_POLICY_ID));
    if (!policy) errors.ttl_addon_id = ['Please select a retention plan.'];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const id = randomBytes(8).toString('hex');
    const database = databaseOf(id, platform.config.qrynClickhouse?.databasePrefix);
    try {
      const client = await storageOf({ project_id: request.projectId, cluster_id: body.cluster_id }, db);
      await createInstanceSchema(client, database);
      return { id, database, body, policy: policy!, client };
    } catch (error) {
      const message = error instanceof Error ? error.message.slice(0, 200) : String(error);
      // Unreachable (down, refusing connections, overloaded): nothing was recorded, so trying again later is safe.
      // Anything else is the storage's answer, which trying again does not change: its reason goes to the operator.
      if (storageUnavailable(error)) {
        // The cause (which may name the storage's internal address) goes to the operator's log, not to the customer.
        platform.log(`[qryn] enable: the storage did not answer: ${message}`);
        throw new ApiError(503, 'Storage unavailable', 'The storage did not answer; nothing was enabled. Try again in a moment.');
      }
      throw new ValidationError({ cluster_id: [`The storage refused to create the qryn tables (docs/qryn.md, "Storage on an existing ClickHouse server or cluster"): ${message}`] });
    }
  }

  const backend: QrynBackend = {
    slug: QRYN_PRODUCT.slug,
    httpPrefix: gateway.prefix,
    gateway,
    writer,
    resolver,
    storageServer: () => server,
    storageOf,
    instanceUrl: (id) => `${platform.config.publicUrl}${gateway.prefix}/${id}`,
    async defaultInput() {
      const region = sharedRegion();
      return { cluster_id: sharedResourceId(region.code), writer_region_code: region.code, multi_org: false };
    },
    // Loggen's defaults: the instance's address and key, with a write token made for Loggen (the instance's secret is
    // kept only as a hash, so it cannot be handed out again). The token is listed in the instance's Auth Tokens as
    // 'Loggen' and deleting it stops Loggen's pushes.
    ingestionTarget: (db, projectId) => scopedTarget(db, projectId, 'Loggen', 'write'),
    // Loggen may push to this address although it is the platform's own (docs/security.md, address rules).
    async ingestionUrl(db, projectId) {
      const instance = await findInstanceOfProject(db, projectId);
      return instance ? `${platform.config.publicUrl}${gateway.prefix}/${instance.id}` : undefined;
    },
    // Grafana's datasources read with a read token of their own, listed as 'Grafana' in the Auth Tokens.
    readTarget: (db, projectId, consumer) => scopedTarget(db, projectId, consumer, 'read'),
    invalidate: (instanceId, tx) => events.publish(INVALIDATE_EVENT, instanceId ? { instanceId } : {}, tx),
    runRetention,
    runInstrumentation: () => scrapeInstrumented({ db: platform.db, resolver, writer, storageOf, nowMs }),
    handleHttp: (req, res) => gateway.handle(req, res),
    handleUpgrade: (req, socket, head) => liveTail.handleUpgrade(req, socket, head),
    closeUpgrades: () => liveTail.close(),
    liveTail,

    async prepareEnable(request) {
      const prepared = await prepare(platform.db, request);
      return { state: prepared, undo: () => dropInstanceSchema(prepared.client, prepared.database) };
    },

    async enable(tx: Queryable, request: EnableRequest): Promise<EnableResult & { apiKey: string; apiSecret: string }> {
      if (await findInstanceOfIntegration(tx, request.integrationId)) {
        throw new ValidationError({ _form: ['qryn is already enabled for this project.'] });
      }
      // Through the stack's enable the storage work was done before the transaction (prepareEnable); a direct call
      // does it here.
      const { id, database, body, policy } = (request.prepared as QrynPrepared | undefined) ?? (await prepare(tx, request));
      const apiKey = newApiKey();
      const apiSecret = newSecret();
      await insertInstance(tx, {
        id,
        integration_id: request.integrationId,
        project_id: request.projectId,
        organization_id: request.organizationId,
        cluster_id: body.cluster_id,
        writer_region_code: body.writer_region_code,
        multi_org: body.multi_org ?? false,
        ttl_addon_id: policy.id,
        ttl_days: policy.ttl_days,
        database_name: database,
        api_key: apiKey,
        api_secret_hash: hashSecret(apiSecret),
      });
      return {
        items: [
          { label: 'API KEY', value: apiKey },
          { label: 'API SECRET', value: apiSecret },
        ],
        hasJsonDownload: true,
        apiKey,
        apiSecret,
      };
    },

    async release(tx, integration) {
      const instance = await findInstanceOfIntegration(tx, integration.integrationId);
      if (!instance) return;
      await deleteInstance(tx, instance.id);
      // The keys and tokens are refused as soon as the transaction commits (rows gone); the data is dropped by a job.
      await platform.jobs.enqueue(tx, DROP_JOB, { subject: `qryn-instance:${instance.id}`, payload: { instanceId: instance.id, projectId: instance.project_id, clusterId: instance.cluster_id, database: instance.database_name } });
      await backend.invalidate(instance.id, tx);
    },

    registerRoutes(router, ctx) {
      registerQrynRoutes(router, ctx, backend);
      // The API's caller resolver reads the console's token; its refusals become the gateway's 401 or 403.
      gateway.acceptSessions(
        sessionAuthenticator({
          db: ctx.db,
          async resolveCaller(req) {
            try {
              return (await ctx.callers.resolve(req, ctx.db)) ?? undefined;
            } catch (error) {
              if (error instanceof ApiError) throw new HttpError(error.status === 401 ? 401 : 403, error.description);
              throw error;
            }
          },
        }),
      );
    },

    async start() {
      // An existing ClickHouse that lacks what qryn needs (cluster, nodes, rights) stops the start with what to do.
      if (platform.config.qrynClickhouse) await checkExternalStorage(platform.config.qrynClickhouse);
      // A storage server that cannot start does not stop the platform: system status shows Storage down, enable and
      // the gateway answer that the storage is unavailable.
      try {
        // An existing ClickHouse server or cluster when configured (several platform instances share it); else the
        // embedded server under DATA_DIR.
        const external = platform.config.qrynClickhouse;
        server = external ? connectExternalStorage(external, platform.log) : await startStorageServer({ dir: path.join(platform.config.dataDir, 'storage'), log: platform.log });
      } catch (error) {
        platform.log(`[qryn] the storage server did not start: ${error instanceof Error ? error.message : String(error)}`);
        console.error(`[qryn] the storage server did not start: ${error instanceof Error ? error.message : String(error)}`);
      }
      platform.services.register(QRYN_PRODUCT, 'Storage', async () => (server ? server.ping() : false));
      platform.services.register(QRYN_PRODUCT, 'Ingestion gateway', async () => {
        // Through the platform's own listener, as a client would reach it.
        const host = platform.config.host === '0.0.0.0' || platform.config.host === '::' ? '127.0.0.1' : platform.config.host;
        // Its /ready answers within READY_PROBE_MS whatever the storage does, inside the status check's own 2 s.
        const response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${platform.config.port}${gateway.prefix}/0/ready`, { signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        // 503 is the gateway answering that the storage is not (Storage is down then): the gateway itself runs.
        return response.ok || response.status === 503;
      });
      platform.jobs.register(DROP_JOB, async ({ job }) => {
        const payload = job.payload as { instanceId: string; projectId: number; clusterId: string; database: string };
        if (await findInstance(platform.db, payload.instanceId)) return { skipped: true };
        await dropInstanceSchema(await storageOf({ project_id: payload.projectId, cluster_id: payload.clusterId }), payload.database);
        await backend.invalidate(payload.instanceId);
        return { dropped: payload.database };
      });
      await scheduleRecurringJob(platform.jobs, platform.db, {
        kind: RETENTION_JOB,
        subject: RETENTION_SUBJECT,
        intervalMs: RETENTION_INTERVAL_MS,
        firstDelayMs: 60_000,
        run: async () => ({ dropped: await runRetention() }),
      });
      await scheduleRecurringJob(platform.jobs, platform.db, {
        kind: INSTRUMENTATION_JOB,
        subject: INSTRUMENTATION_SUBJECT,
        intervalMs: INSTRUMENTATION_INTERVAL_MS,
        firstDelayMs: 10_000,
        run: () => backend.runInstrumentation(),
      });
    },

    async close() {
      await liveTail.close();
      const running = server;
      server = undefined;
      clients.clear();
      await Promise.all([closePromqlWorkers(), closeLogqlWorkers()]);
      await running?.close();
    },
  };
  return backend;
}

// The project's own running ClickHouse clusters are offered as storage next to the shared one.
export const qrynProductFactory = (platform: ProductPlatform): ProductBackend => createQrynBackend(platform, { projectClusters: clickhouseProjectClusters(platform) });
