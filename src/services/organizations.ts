// Organization calls (spec 000 section 7 Organizations) and the create-organization draft kept in the browser.
import { MessageResponse } from '../../contract/common';
import { CreateOrganizationResponse, OrganizationUserList } from '../../contract/organizations';
import { readStorage, removeStorage, writeStorage } from './browser-storage';
import { http } from './http';

export type OrganizationUser = Awaited<ReturnType<typeof listOrganizationUsers>>[number];

export function createOrganization(input: { displayName: string; billingAccountId: number }) {
  return http.post('organizations/', CreateOrganizationResponse, { json: input });
}

/** Active members of the organization the token is scoped to, owners first. */
export function listOrganizationUsers() {
  return http.get('organizations/users', OrganizationUserList);
}

/** Removes a member from the organization, its projects and integrations. */
export function removeOrganizationUser(userId: string) {
  return http.delete(`organizations/user/${encodeURIComponent(userId)}`, MessageResponse);
}

/** An owner switches a non-owner between read-only and read-write. */
export function changeMemberRole(input: { userId: string; readOnly: boolean; organizationId: number }) {
  return http.get('users/promote', MessageResponse, {
    searchParams: { user_id: input.userId, read_only: String(input.readOnly), organization_id: input.organizationId },
  });
}

/**
 * The wizard's progress, remembered so that leaving and coming back resumes instead of creating a second billing
 * account. It is only a hint: the wizard checks it against the server before using it.
 */
export interface OrganizationDraft {
  name: string;
  billingAccountId: number;
  hasCard: boolean;
}

const DRAFT_KEY = 'organizationDraft';

export function readOrganizationDraft(): OrganizationDraft | null {
  const raw = readStorage('local', DRAFT_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<OrganizationDraft>;
    if (typeof value.name === 'string' && typeof value.billingAccountId === 'number' && typeof value.hasCard === 'boolean') {
      return { name: value.name, billingAccountId: value.billingAccountId, hasCard: value.hasCard };
    }
  } catch {
    // A damaged draft is ignored; the server still knows the billing account by name.
  }
  return null;
}

export function saveOrganizationDraft(draft: OrganizationDraft): void {
  writeStorage('local', DRAFT_KEY, JSON.stringify(draft));
}

export function clearOrganizationDraft(): void {
  removeStorage('local', DRAFT_KEY);
}
