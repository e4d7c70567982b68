import { createLoggenBackend } from './loggen/loggen-backend';
import type { ProductBackend, ProductFactory, ProductPlatform } from './product-backend';
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

export interface ProductRegistry {
  get(slug: string): ProductBackend | undefined;
  all(): ProductBackend[];
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

/** No product back ends (API tests that exercise only the account area). */
export function emptyProductRegistry(): ProductRegistry {
  return { get: () => undefined, all: () => [], start: async () => undefined, close: async () => undefined };
}
