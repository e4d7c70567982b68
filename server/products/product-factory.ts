import type { PlatformConfig } from '../config';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import type { ServiceRegistry } from '../route-kit/service-registry';
import type { ProductBackend } from '../route-kit/product-backend';
import type { ProductRegistry } from './product-registry';
import type { InstanceEvents } from '../coordination/instance-events';

// How a product back end is made: each product exports one factory; server/products/product-registry.ts calls them
// with the platform's parts.

/** What a back end gets from the platform, once, when it is created. */
export interface ProductPlatform {
  db: Database;
  config: PlatformConfig;
  clock: Clock;
  jobs: JobQueue;
  services: ServiceRegistry;
  log: (message: string) => void;
  /** The other products of this installation (a product that stores on another: Hepic on ClickHouse clusters). */
  products?: () => ProductRegistry;
  /**
   * Changes told to every platform instance on the same PostgreSQL (server/coordination/instance-events.ts), so a
   * cache another instance keeps is dropped at once. Absent (harnesses without the platform): this process only.
   */
  events?: InstanceEvents;
}

export type ProductFactory = (platform: ProductPlatform) => ProductBackend;
