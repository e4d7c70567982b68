// The stack's calls: enable a product (with the show-config input of qryn and Hepic), cancel a subscription, and the
// show-config options (read through the products' own calls, shapes in contract/stack.ts).
import { IntegrationCancelResponse } from '../../contract/integrations';
import { CloudResourceList, EnableProductResponse, HepicPlanList, RetentionPolicyList, WriterRegionList } from '../../contract/stack';
import { http } from './http';

export type EnableProductResult = Awaited<ReturnType<typeof enableProduct>>;
export type CloudResource = Awaited<ReturnType<typeof listCloudResources>>[number];
export type WriterRegion = Awaited<ReturnType<typeof listWriterRegions>>[number];
export type RetentionPolicy = Awaited<ReturnType<typeof listRetentionPolicies>>[number];
export type HepicPlan = Awaited<ReturnType<typeof listHepicPlans>>[number];

/**
 * How long an enable may take: creating a product's storage (a database and its tables on a cluster, up to a minute
 * a statement on a slow one) can outlast an ordinary call's 30 s, and an enable given up on while the server goes
 * on would commit with its one-time secret never shown.
 */
export const ENABLE_TIMEOUT_MS = 5 * 60_000;

/** POST integrations/{product}/?project_id with the show-config fields (camelCase here, snake_case on the wire). */
export function enableProduct(productSlug: string, projectId: number, input: Record<string, unknown> = {}) {
  return http.post(`integrations/${encodeURIComponent(productSlug)}/`, EnableProductResponse, { searchParams: { project_id: projectId }, json: input, timeoutMs: ENABLE_TIMEOUT_MS });
}

export function cancelIntegration(productSlug: string, projectId: number) {
  return http.post(`integrations/${encodeURIComponent(productSlug)}/cancel`, IntegrationCancelResponse, { searchParams: { project_id: projectId } });
}

export function listCloudResources(productSlug: 'qryn' | 'hepic', projectId: number) {
  return http.get(`integrations/${productSlug}/cloud/resources`, CloudResourceList, { searchParams: { project_id: projectId } });
}

export function listWriterRegions() {
  return http.get('integrations/qryn/writer-regions', WriterRegionList);
}

export function listRetentionPolicies() {
  return http.get('integrations/qryn/retention/policies', RetentionPolicyList);
}

export function listHepicPlans() {
  return http.get('integrations/hepic/plans', HepicPlanList);
}

export type ConfigOptions =
  | { kind: 'qryn'; resources: CloudResource[]; writerRegions: WriterRegion[]; retentionPolicies: RetentionPolicy[] }
  | { kind: 'hepic'; resources: CloudResource[]; plans: HepicPlan[] };

/** What the show-config step of qryn or Hepic offers, loaded together. */
export async function loadConfigOptions(productSlug: 'qryn' | 'hepic', projectId: number): Promise<ConfigOptions> {
  if (productSlug === 'qryn') {
    const [resources, writerRegions, retentionPolicies] = await Promise.all([listCloudResources('qryn', projectId), listWriterRegions(), listRetentionPolicies()]);
    return { kind: 'qryn', resources: [...resources], writerRegions: [...writerRegions], retentionPolicies: [...retentionPolicies] };
  }
  const [resources, plans] = await Promise.all([listCloudResources('hepic', projectId), listHepicPlans()]);
  return { kind: 'hepic', resources: [...resources], plans: [...plans] };
}
