import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import type { Caller, CallerResolver } from './caller';
import type { Router } from './router';
import type { ServiceRegistry } from './service-status';
import type { ReadCache } from './read-cache';
import type { Clock } from '../clock';
import type { JobQueue } from '../jobs/job-queue';
import type { ProductRegistry } from '../products/product-registry';

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
  /** The product back ends (server/products/<slug>/). */
  products: ProductRegistry;
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
