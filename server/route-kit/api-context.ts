import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import type { Caller, CallerResolver } from './caller';
import type { Router } from './router';
import type { ServiceRegistry } from './service-registry';
import type { Clock } from '../clock';
import type { JobQueue } from '../jobs/job-queue';
import type { ProductBackends } from './product-backend';

// What a route gets, whoever registers it: the platform API (server/api) and every product back end
// (server/products/<slug>/) build their routes on these types, and the platform wires the parts in
// (server/api/api-handler.ts, server/platform.ts), so neither side imports the other.

/** What every route module gets: the platform's parts, created once per API handler. */
export interface ApiContext {
  db: Database;
  config: PlatformConfig;
  mailer: Mailer;
  payments: PaymentProvider;
  callers: CallerResolver;
  services: ServiceRegistry;
  reads: ReadCache;
  /** Business time (trials, periods, invoices); tests move it forward. */
  clock: Clock;
  jobs: JobQueue;
  /** The product back ends (server/products/<slug>/), as the platform installed them. */
  products: ProductBackends;
}

/** Per request: the caller is resolved on first use, so public routes never verify a token. */
export interface RequestScope {
  caller(): Promise<Caller | null>;
}

/** Cache key of a read made for this caller in their current mode. */
export function readKey(caller: Caller, ...parts: (string | number)[]): string {
  return [caller.userId, caller.organizationId ?? 'personal', ...parts].join('|');
}

export type ApiRouter = Router<RequestScope>;

/** Identical reads shared until the next write (server/api/read-cache.ts makes it). */
export interface ReadCache {
  /** The value for key: shared with a concurrent identical read, or reused from a recent one, or computed now. */
  share<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Called around every request that may write: invalidates everything read before it. */
  noteWrite(): void;
}
