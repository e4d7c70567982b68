import type { HepicPlan } from '../../../contract/stack';

// Hepic's price list (spec §3 Plan: id, description, price in cents, shown divided by 100). These are this
// installation's list prices, documented in docs/hepic.md. A plan with a quota shows Storage Quota, Ingested and
// Rotation Point on the Overview; the plan without one shows Stored and Usage percent (of the storage's disk).

export interface HepicPlanTerms extends HepicPlan {
  /** Bytes the instance may keep; null: no quota. */
  storageQuotaBytes: number | null;
  /** Days of packets kept: older days are dropped (the rotation point). */
  rotationDays: number;
}

const GB = 1_000_000_000;

export const HEPIC_PLANS: readonly HepicPlanTerms[] = [
  { id: 'hepic-starter', description: 'Starter: 10 GB of captured packets, kept 7 days', price: 4900, storageQuotaBytes: 10 * GB, rotationDays: 7 },
  { id: 'hepic-business', description: 'Business: 100 GB of captured packets, kept 30 days', price: 19900, storageQuotaBytes: 100 * GB, rotationDays: 30 },
  { id: 'hepic-own-storage', description: 'Own storage: no quota, kept 90 days, billed by the storage it uses', price: 9900, storageQuotaBytes: null, rotationDays: 90 },
];

export const findPlan = (id: string) => HEPIC_PLANS.find((plan) => plan.id === id);

export const publicPlan = (plan: HepicPlanTerms): HepicPlan => ({ id: plan.id, description: plan.description, price: plan.price });
