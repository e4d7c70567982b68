// Who may delete a project (spec 000 section 2 Delete project card): the project owner, in organization mode, and
// not while Hepic runs. The API applies the same rules with the same texts (server/api/project-routes.ts).
import { ErrorText } from '../../../contract/errors';

const LIVE = new Set(['trial', 'active', 'scheduled_for_cancellation']);

export function isHepicLive(integrations: readonly { product: { slug: string }; status: string }[]): boolean {
  return integrations.some((integration) => integration.product.slug === 'hepic' && LIVE.has(integration.status));
}

/** Why the Delete project button is disabled, in the spec's words; null when it is enabled. */
export function deleteBlockedReason(input: { organizationMode: boolean; owner: boolean; hepicLive: boolean }): string | null {
  if (!input.organizationMode) return ErrorText.projectDeletionOrganizationOnly;
  if (!input.owner) return ErrorText.projectDeletionOwnerOnly;
  if (input.hepicLive) return ErrorText.projectDeletionHepicActive;
  return null;
}
