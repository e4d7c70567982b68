import type { ServiceStatus } from '../../contract/integrations';

// What the system status page reports: the platform registers its own checks (server/api/service-status.ts makes
// the registry) and each product back end registers its services on it when it is installed.

export type ServiceCheck = () => Promise<boolean>;

export interface ServiceRegistry {
  register(product: { slug: string; name: string }, service: string, check: ServiceCheck): void;
  /**
   * A service of `product` that is another product's service (Hepic and Loggen write to qryn's shared storage): it
   * runs when that one runs, so a product's status follows the services it depends on. Read at check time, so the
   * order in which products start does not matter; a service nobody registered is down.
   */
  follow(product: { slug: string; name: string }, service: string, of: { slug: string; service: string }): void;
  report(products: readonly { slug: string; name: string }[]): Promise<ServiceStatus[]>;
}
