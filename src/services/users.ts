import { MessageResponse } from '../../contract/common';
import { UpdateProfileResponse } from '../../contract/users';
import { OrganizationList } from '../../contract/organizations';
import { http } from './http';

export type UserOrganization = Awaited<ReturnType<typeof listUserOrganizations>>[number];

/** Organizations the user is a member of (read_only tells read-only membership). */
export function listUserOrganizations() {
  return http.get('users/organizations', OrganizationList);
}

/** Organizations the user owns (fresh for 8 h). */
export function listOwnedOrganizations() {
  return http.get('organizations/users/owner', OrganizationList);
}

/** PATCH users {given_name, family_name, name}: only for username-password accounts. */
export function updateProfile(input: { givenName: string; familyName: string }) {
  return http.patch('users', UpdateProfileResponse, { json: { ...input, name: `${input.givenName} ${input.familyName}`.trim() } });
}

/** PATCH users/password {password}: the new password, checked again by the server with the same rules. */
export function updatePassword(password: string) {
  return http.patch('users/password', MessageResponse, { json: { password } });
}

/** DELETE users: 402 with payment_link (on the error's body) while invoices are open. */
export function deleteAccount() {
  return http.delete('users', MessageResponse);
}
