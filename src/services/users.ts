import { MessageResponse } from '../../contract/common';
import { UpdateProfileResponse } from '../../contract/users';
import { http } from './http';

// The organization lists are first reads of the shell: shell-reads.ts (checked without the schema library).
export { listOwnedOrganizations } from './shell-reads';

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
