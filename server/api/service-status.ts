import type { Queryable } from '../db/database';
import type { ServiceCheck, ServiceRegistry } from '../route-kit/service-registry';

// The system status page reports what really runs. The platform registers its own checks (API, database); each
// product back end registers its services when it is installed. A product with nothing registered reports no
// services, which the console shows as not operational: there is no back end for it in this installation.

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ServiceCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check().catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createServiceRegistry(db: Queryable): ServiceRegistry {
  const entries = new Map<string, { name: string; services: Map<string, ServiceCheck> }>();
  const registry: ServiceRegistry = {
    register(product, service, check) {
      const entry = entries.get(product.slug) ?? { name: product.name, services: new Map() };
      entry.services.set(service, check);
      entries.set(product.slug, entry);
    },
    follow(product, service, of) {
      registry.register(product, service, async () => {
        const check = entries.get(of.slug)?.services.get(of.service);
        return check ? check() : false;
      });
    },
    async report(products) {
      const slugs = ['platform', ...products.map((p) => p.slug).filter((s) => s !== 'platform')];
      const names = new Map(products.map((p) => [p.slug, p.name]));
      return Promise.all(
        slugs.map(async (slug) => {
          const entry = entries.get(slug);
          const services = entry
            ? await Promise.all([...entry.services].map(async ([name, check]) => ({ name, running: await runCheck(check) })))
            : [];
          return { product: entry?.name ?? names.get(slug) ?? slug, slug, services };
        }),
      );
    },
  };
  registry.register({ slug: 'platform', name: 'Platform' }, 'API', async () => true);
  registry.register({ slug: 'platform', name: 'Platform' }, 'Database', async () => {
    await db.query('SELECT 1');
    return true;
  });
  return registry;
}
