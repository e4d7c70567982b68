import { createLoggenBackend } from './loggen/loggen-backend';
import type { ProductBackend, ProductBackends } from '../route-kit/product-backend';
import type { ProductFactory, ProductPlatform } from './product-factory';
import { clickhouseFactory } from './clickhouse/clickhouse-backend';
import { qrynProductFactory } from './qryn/qryn-backend';
import { grafanaProductFactory } from './grafana/grafana-backend';
import { hepicProductFactory } from './hepic/hepic-backend';

// Every product back end of this installation. A product adds its factory to PRODUCT_FACTORIES (one line); a
// product without one has no back end here, which the stack reports as "couldn't be enabled" and system status as
// not operational.

export const PRODUCT_FACTORIES: ProductFactory[] = [
  clickhouseFactory,
  qrynProductFactory,
  createLoggenBackend,
  grafanaProductFactory,
  hepicProductFactory,
];

/** The installed back ends; the platform starts and closes them, and gives them to the API as ProductBackends. */
export interface ProductRegistry extends ProductBackends {
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createProductRegistry(platform: ProductPlatform, factories: readonly ProductFactory[] = PRODUCT_FACTORIES): ProductRegistry {
  let registry: ProductRegistry | undefined;
  const backends = factories.map((factory) => factory({ ...platform, products: () => registry! }));
  const bySlug = new Map(backends.map((backend) => [backend.slug, backend]));
  registry = {
    get: (slug) => bySlug.get(slug),
    all: () => [...backends],
    async start() {
      // A product that cannot start stops the platform's start; those already started are stopped again.
      const started: ProductBackend[] = [];
      try {
        for (const backend of backends) {
          started.push(backend);
          await backend.start?.();
        }
      } catch (error) {
        for (const backend of started.reverse()) await backend.close?.().catch(() => undefined);
        throw error;
      }
    },
    async close() {
      // In reverse: a product that stores on another (qryn on ClickHouse) stops before its storage does.
      for (const backend of [...backends].reverse()) {
        await backend.close?.().catch((error: unknown) => platform.log(`[products] ${backend.slug} close failed: ${String(error)}`));
      }
    },
  };
  return registry;
}
