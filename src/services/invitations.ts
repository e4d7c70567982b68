// Invitations to an organization (spec 000 section 7 Organizations): listing, sending, re-sending, deleting and
// accepting them.
import { MessageResponse } from '../../contract/common';
import { AcceptInvitationResponse, InviteResponse, InvitedUserList } from '../../contract/invitations';
import { http } from './http';

export type InvitedUser = Awaited<ReturnType<typeof listInvitations>>[number];

/** Pending invitations of the organization the token is scoped to. */
export function listInvitations() {
  return http.get('organizations/invitations', InvitedUserList);
}

/** project_ids empty means every project of the organization. */
export function inviteMember(input: { email: string; readOnly: boolean; projectIds: number[] }) {
  return http.post('organizations/invitations', InviteResponse, { json: input });
}

export function resendInvitation(id: number) {
  return http.patch('organizations/invitations', MessageResponse, { json: { id } });
}

export function deleteInvitation(inviteId: number) {
  return http.delete('organizations/invites', MessageResponse, { searchParams: { invite_id: inviteId } });
}

/** Accepts an invitation with its code (urlencoded, as the spec's call does). */
export function acceptInvitation(code: string) {
  return http.post('organizations/invitations/accept', AcceptInvitationResponse, { searchParams: { code }, form: { code } });
}
