import type { Queryable } from '../db/database';
import type { ApiContext, ApiRouter } from './api-context';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

// The seam between the stack (enable, cancel, status, system status) and the five products. The stack never names
// a product's internals: it calls these methods. Each product lives in server/products/<slug>/ and exports one
// factory (server/products/product-factory.ts) that returns a ProductBackend; server/products/product-registry.ts
// lists them, and the platform hands the registry to the API as ProductBackends.

export interface EnableRequest {
  integrationId: number;
  /** What prepareEnable() returned (its `state`), when the back end has that step. */
  prepared?: unknown;
  projectId: number;
  userId: string;
  /** The token's organization (null in personal mode). */
  organizationId: number | null;
  /** The show-config form's fields (qryn, Hepic); {} for products enabled directly. */
  input: Record<string, unknown>;
}

/** One row of show-info (label and value, e.g. API KEY / API SECRET). */
export interface InfoItem {
  label: string;
  value: string;
}

export interface EnableResult {
  /** Shown in the show-info step (qryn's key and secret); empty for products enabled directly. */
  items?: InfoItem[];
  hasJsonDownload?: boolean;
}

/** Remote work done for an enable before its transaction opens (prepareEnable). */
export interface PreparedEnable {
  /** Handed to enable() as `request.prepared`. */
  state: unknown;
  /** Undoes the remote work when the integration's transaction does not commit (best effort). */
  undo(): Promise<void>;
}

export interface ProductBackend {
  readonly slug: string;
  /**
   * Work of an enable that reaches other servers (a storage's CREATE DATABASE/TABLE), done before the transaction
   * that records the integration opens: the embedded database serves one transaction at a time, so a slow or paused
   * server inside it would hold every other request of the platform. Validates the input as enable() does (422 per
   * field). Without it, enable() does all of its work inside the transaction.
   */
  prepareEnable?(request: Omit<EnableRequest, 'integrationId' | 'prepared'>): Promise<PreparedEnable>;
  /**
   * Creates the product's back end for a project, inside the transaction that records the integration (so a failure
   * leaves nothing behind). Long work (starting servers) is enqueued as a job on `tx`, not awaited here. Throws a
   * ValidationError (422, per field) for a bad show-config input.
   */
  enable(tx: Queryable, request: EnableRequest): Promise<EnableResult>;
  /**
   * Releases everything the product holds for the integration (servers stopped, data removed, listeners closed).
   * Called when a subscription ends and when a project is deleted; must be safe to call twice.
   */
  release(tx: Queryable, integration: { integrationId: number; projectId: number }): Promise<void>;
  /** Registers the product's own API calls (beyond the stack's generic ones). */
  registerRoutes?(router: ApiRouter, ctx: ApiContext): void;
  /**
   * A path prefix on the platform's origin, outside the API, that the product serves itself (qryn's ingestion
   * gateway under /qryn/); requests under it go to handleHttp.
   */
  readonly httpPrefix?: string;
  handleHttp?(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * A WebSocket upgrade under httpPrefix (qryn's live tail). Returns true when the product took the socket (it then
   * answers it, accepting or refusing); false leaves it to the platform, which refuses it.
   */
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Ends the product's upgraded connections (called before the platform's listener closes). */
  closeUpgrades?(): Promise<void>;
  /** Starts listeners and workers, registers health checks and job handlers. Called once at platform start. */
  start?(): Promise<void>;
  /** Stops what start() started; processes the platform owns must not outlive it. */
  close?(): Promise<void>;
  /**
   * qryn: where a project's data is pushed and with which credentials (Loggen's defaults point there). Undefined
   * when the project has no qryn instance.
   */
  ingestionTarget?(db: Queryable, projectId: number): Promise<IngestionTarget | undefined>;
  /** qryn: the base URL of the project's instance (no token made), undefined without an instance. */
  ingestionUrl?(db: Queryable, projectId: number): Promise<string | undefined>;
  /**
   * qryn: where a project's data is read (Grafana's datasources) with a read-scoped token made for the named consumer.
   * Undefined when the project has no qryn instance.
   */
  readTarget?(db: Queryable, projectId: number, consumer: string): Promise<IngestionTarget | undefined>;
  /** The show-config choice a quick start makes (the demo data): qryn's shared storage in the platform's region. */
  defaultInput?(projectId: number): Promise<Record<string, unknown>>;
}

export interface IngestionTarget {
  /** The instance's base URL; the protocols' standard paths (/loki/api/v1/push …) follow it. */
  url: string;
  apiKey: string;
  apiSecret: string;
}

/** The installed product back ends as the API uses them: looked up by slug, or all of them (their routes). */
export interface ProductBackends {
  get(slug: string): ProductBackend | undefined;
  all(): ProductBackend[];
}
