import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { decodeInput } from '../../../contract/common';
import { HEPIC_KEY_ITEM_LABEL } from '../../../contract/hepic';
import { HepicEnableBody, SELECT_PRICING_PLAN_MESSAGE, SELECT_STORAGE_MESSAGE } from '../../../contract/stack';
import { ValidationError } from '../../route-kit/http';
import type { Queryable } from '../../db/database';
import { scheduleRecurringJob } from '../../jobs/recurring-job';
import type { EnableRequest, EnableResult, ProductBackend } from '../../route-kit/product-backend';
import type { ProductFactory, ProductPlatform } from '../product-factory';
import { claimPort, type PortClaim } from '../../coordination/port-ownership';
import { localInstanceEvents } from '../../coordination/instance-events';
import { listenerLimits, startHepListener, type HepListener, type ListenerLimits } from './hep-listener';
import { findPlan, HEPIC_PLANS } from './hepic-plans';
import { deleteInstance, findIngestKey, findInstance, findInstanceOfIntegration, insertInstance, listInstances, type HepicInstanceRow } from './hepic-repository';
import { registerHepicRoutes } from './hepic-routes';
import { hashIngestKey, ingestKeyHint, newIngestToken } from './ingest-key';
import { PACKET_COLUMNS } from './hep-row';
import { createHepicStorageResolver, createInstanceSchema, databaseOf, dropInstanceSchema, dropOldDays, type HepicStorage, type HepicStorageResolver } from './hepic-storage';

// Hepic's back end: instances (one ClickHouse database each on the storage chosen at enable, a token and a plan),
// the HEP endpoint (UDP and TCP on one port, started with the platform), rotation of old days, and the Hepic API
// calls (hepic-routes.ts).

export const HEPIC_PRODUCT = { slug: 'hepic', name: 'Hepic' } as const;
const DROP_JOB = 'hepic.drop-database';
const ROTATION_JOB = 'hepic.rotation';
const ROTATION_SUBJECT = 'hepic:rotation';
const ROTATION_INTERVAL_MS = 60 * 60 * 1000;
/** The instance-events topic of Hepic's caches (server/coordination/instance-events.ts; qryn's is qryn.invalidate). */
export const HEPIC_INVALIDATE_EVENT = 'hepic.invalidate';

export interface HepicBackend extends ProductBackend {
  readonly resolver: HepicStorageResolver;
  /** The running HEP endpoint (undefined before start, after close, or when it could not bind). */
  listener(): HepListener | undefined;
  /** 'host:port' as the console shows it ('HEP Endpoint'). */
  hepEndpoint(): string;
  /** The application URL of an instance (the hepic UI). */
  applicationUrl(instance: HepicInstanceRow): string;
  storageOf(instance: Pick<HepicInstanceRow, 'project_id' | 'cluster_id'>): Promise<HepicStorage>;
  /** Drops days older than each instance's rotation now (the scheduled job calls this). */
  runRotation(): Promise<string[]>;
  /**
   * An instance's keys, tokens or row changed: every platform instance drops what it cached of them (the HEP
   * listener's key grants, the instance's row). With `tx` the other instances are told when it commits; this
   * instance drops its caches now, and the caller calls `forget` again after the commit, so that a packet looked up
   * between the two (the old key still committed) is not cached.
   */
  invalidate(instanceId: string, tx?: Queryable): Promise<void>;
  /** Drops this process's caches of the instance (all of them without an id); tells nobody. */
  forget(instanceId?: string): void;
}

export class StorageUnavailableError extends Error {}

/** An enable's storage work, done before the integration's transaction (prepareEnable). */
interface HepicPrepared {
  id: string;
  database: string;
  body: { price_id: string; cluster_id: string };
  plan: NonNullable<ReturnType<typeof findPlan>>;
  storage: HepicStorage;
}

export function createHepicBackend(platform: ProductPlatform, options: { port?: number; limits?: Partial<ListenerLimits> } = {}): HepicBackend {
  let listener: HepListener | undefined;
  let portClaim: PortClaim | undefined;
  const resolver = createHepicStorageResolver(platform.db, () => platform.products?.(), path.join(platform.config.dataDir, 'storage'));
  const publicHost = new URL(platform.config.publicUrl).hostname;
  const instances = new Map<string, { row: HepicInstanceRow; until: number }>();
  const events = platform.events ?? localInstanceEvents();

  // The key grants are keyed by the key's hash, not by instance, so the listener's whole cache goes: changes to keys
  // are rare, and the next packet of each key costs one lookup.
  function forget(instanceId?: string): void {
    if (instanceId) instances.delete(instanceId);
    else instances.clear();
    listener?.invalidate();
  }
  // Another platform instance changed a key, a token or an instance (or notifications may have been missed:
  // `undefined`, then everything is forgotten).
  events.subscribe(HEPIC_INVALIDATE_EVENT, (message) => forget(typeof message?.instanceId === 'string' ? message.instanceId : undefined));

  async function storageOf(instance: Pick<HepicInstanceRow, 'project_id' | 'cluster_id'>): Promise<HepicStorage> {
    const storage = await resolver.resolve(instance.project_id, instance.cluster_id);
    if (!storage) throw new StorageUnavailableError(`The storage ${instance.cluster_id} is not available.`);
    return storage;
  }

  async function instanceRow(id: string): Promise<HepicInstanceRow | undefined> {
    const hit = instances.get(id);
    if (hit && hit.until > Date.now()) return hit.row;
    const row = await findInstance(platform.db, id);
    if (row) instances.set(id, { row, until: Date.now() + 30_000 });
    else instances.delete(id);
    return row;
  }

  async function runRotation(): Promise<string[]> {
    const today = new Date(platform.clock.nowMs()).toISOString().slice(0, 10);
    const dropped: string[] = [];
    // Each instance on its own: one storage that errors must not stop the rotation of the others (their data would
    // then grow without limit on the shared disk). Failures are logged and left for the next pass.
    for (const instance of await listInstances(platform.db)) {
      try {
        const storage = await storageOf(instance).catch(() => undefined);
        if (!storage) continue;
        for (const day of await dropOldDays(storage.client, instance.database_name, instance.rotation_days, today)) dropped.push(`${instance.id}:${day}`);
      } catch (error) {
        platform.log(`[hepic] rotation of instance ${instance.id} failed, left for the next pass: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
      }
    }
    if (dropped.length > 0) platform.log(`[hepic] rotation dropped ${dropped.length} days`);
    return dropped;
  }

  /**
   * Checks the show-config input and creates the instance's database and table on its storage (one database, one
   * table: tens of milliseconds on a healthy server; as long as the storage takes on a slow one, which is why the
   * stack calls this before its transaction). A storage that refuses answers 422 on cluster_id.
   */
  async function prepare(db: Queryable, request: Omit<EnableRequest, 'integrationId' | 'prepared'>): Promise<HepicPrepared> {
    const outcome = decodeInput(HepicEnableBody, request.input);
    if (!outcome.ok) throw new ValidationError(outcome.errors);
    const body = outcome.value;
    const errors: Record<string, string[]> = {};
    const plan = findPlan(body.price_id);
    if (!plan) errors.price_id = [SELECT_PRICING_PLAN_MESSAGE];
    const resources = await resolver.resources(request.projectId, db);
    if (!resources.some((r) => r.clickhouse_cluster_id === body.cluster_id)) errors.cluster_id = [SELECT_STORAGE_MESSAGE];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const storage = await resolver.resolve(request.projectId, body.cluster_id, db);
    if (!storage) throw new ValidationError({ cluster_id: ['This storage is not available at the moment. Try again, or choose another one.'] });
    const id = randomBytes(8).toString('hex');
    const database = databaseOf(id);
    try {
      await createInstanceSchema(storage.client, database);
    } catch (error) {
      throw new ValidationError({ cluster_id: [`The storage refused to create the Hepic tables: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`] });
    }
    return { id, database, body, plan: plan!, storage };
  }

  const backend: HepicBackend = {
    slug: HEPIC_PRODUCT.slug,
    resolver,
    listener: () => listener,
    hepEndpoint: () => `${publicHost}:${listener?.port ?? platform.config.hepPort ?? 9060}`,
    applicationUrl: (instance) => `${platform.config.publicUrl}/hepic/${instance.subdomain_prefix}/`,
    storageOf,
    runRotation,
    invalidate: (instanceId, tx) => events.publish(HEPIC_INVALIDATE_EVENT, { instanceId }, tx),
    forget,

    // The quick-start choice (demo data): the first plan on the platform's shared storage.
    async defaultInput(projectId: number) {
      const shared = (await resolver.resources(projectId)).find((resource) => resource.kind === 'shared');
      return { price_id: HEPIC_PLANS[0].id, cluster_id: shared?.clickhouse_cluster_id ?? '' };
    },

    async prepareEnable(request) {
      const prepared = await prepare(platform.db, request);
      return { state: prepared, undo: () => dropInstanceSchema(prepared.storage.client, prepared.database) };
    },

    async enable(tx: Queryable, request: EnableRequest): Promise<EnableResult> {
      if (await findInstanceOfIntegration(tx, request.integrationId)) throw new ValidationError({ _form: ['Hepic is already enabled for this project.'] });
      // Through the stack's enable the storage work was done before the transaction (prepareEnable); a direct call
      // does it here.
      const { id, database, body, plan } = (request.prepared as HepicPrepared | undefined) ?? (await prepare(tx, request));
      // Only the key's hash is stored: the show-info step is the one place the plain key is ever shown.
      const apiKey = newIngestToken();
      await insertInstance(tx, {
        id,
        integration_id: request.integrationId,
        project_id: request.projectId,
        organization_id: request.organizationId,
        cluster_id: body.cluster_id,
        price_id: plan!.id,
        storage_quota_bytes: plan!.storageQuotaBytes,
        rotation_days: plan!.rotationDays,
        database_name: database,
        api_key_hash: hashIngestKey(apiKey),
        api_key_hint: ingestKeyHint(apiKey),
        subdomain_prefix: `hepic-${id}`,
      });
      // The one who enables Hepic is its superadmin: listed (the card is theirs), shown and locked on the Config page.
      // The app's users are the admins and users set there; until one exists, Launch is disabled (docs/hepic.md).
      await tx.query("UPDATE integration_users SET role = 'superadmin' WHERE integration_id = $1 AND user_id = $2", [request.integrationId, request.userId]);
      return { items: [{ label: 'HEP Endpoint', value: backend.hepEndpoint() }, { label: HEPIC_KEY_ITEM_LABEL, value: apiKey }] };
    },

    async release(tx, integration) {
      const instance = await findInstanceOfIntegration(tx, integration.integrationId);
      if (!instance) return;
      await deleteInstance(tx, instance.id);
      // Its tokens stop being accepted once the transaction commits (rows gone, caches dropped); the data is
      // dropped by a job, which retries while the storage is unreachable.
      await platform.jobs.enqueue(tx, DROP_JOB, {
        subject: `hepic-instance:${instance.id}`,
        payload: { instanceId: instance.id, projectId: instance.project_id, clusterId: instance.cluster_id, database: instance.database_name },
      });
      // Sent when the release commits; this instance's caches go now (and again after the commit, see invalidate).
      await backend.invalidate(instance.id, tx);
    },

    registerRoutes(router, ctx) {
      registerHepicRoutes(router, ctx, backend);
    },

    async start() {
      const port = options.port ?? platform.config.hepPort ?? 9060;
      // Port 0: TCP takes a free port and UDP binds the same number; another program may hold that UDP port, so a
      // few tries are made.
      const bind = async () => { for (let attempt = 1; !listener; attempt++) {
        try {
          listener = await startHepListener(
            {
              lookupKey: async (keyHash) => {
                const found = await findIngestKey(platform.db, keyHash);
                return found ? { instanceId: found.instance_id, expiresAtMs: found.expires_at ? found.expires_at.getTime() : null } : undefined;
              },
              write: async (instanceId, rows) => {
                const instance = await instanceRow(instanceId);
                if (!instance) return; // released meanwhile
                const storage = await storageOf(instance);
                await storage.client.insert(`${instance.database_name}.hep_packets`, PACKET_COLUMNS, rows);
              },
              nowMs: () => platform.clock.nowMs(),
              log: platform.log,
            },
            { host: platform.config.host, port, limits: { ...listenerLimits(process.env), ...options.limits } },
          );
        } catch (error) {
          if (port === 0 && attempt < 5) continue;
          platform.log(`[hepic] the HEP endpoint did not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
          console.error(`[hepic] the HEP endpoint did not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
          break;
        }
      } };
      // Several platform instances on one PostgreSQL: one owns the port, the others skip the listener and take over
      // when the owner stops (server/coordination/port-ownership.ts).
      portClaim = await claimPort({ databaseUrl: platform.config.databaseUrl, name: 'HEP', port, start: bind, log: platform.log });
      platform.services.register(HEPIC_PRODUCT, 'HEP endpoint', async () => listener !== undefined);
      // Packets are stored on the shared storage by default: Hepic is down with it (docs/stack.md, system status).
      platform.services.follow(HEPIC_PRODUCT, 'Shared storage', { slug: 'qryn', service: 'Storage' });
      platform.jobs.register(DROP_JOB, async ({ job }) => {
        const payload = job.payload as { instanceId: string; projectId: number; clusterId: string; database: string };
        if (await findInstance(platform.db, payload.instanceId)) return { skipped: true };
        const storage = await resolver.resolve(payload.projectId, payload.clusterId);
        // The cluster itself is gone (deleted with the project): nothing is left to drop.
        if (!storage) return { gone: true };
        await dropInstanceSchema(storage.client, payload.database);
        return { dropped: payload.database };
      });
      await scheduleRecurringJob(platform.jobs, platform.db, {
        kind: ROTATION_JOB,
        subject: ROTATION_SUBJECT,
        intervalMs: ROTATION_INTERVAL_MS,
        firstDelayMs: 60_000,
        run: async () => ({ dropped: await runRotation() }),
      });
    },

    async close() {
      const running = listener;
      listener = undefined;
      await running?.close();
      await portClaim?.release();
    },
  };
  return backend;
}

export const hepicProductFactory: ProductFactory = (platform) => createHepicBackend(platform);
