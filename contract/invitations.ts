import { Schema } from 'effect';
import { nameTextProblem, TEXT_LIMITS } from './text-rules';
import { Id, IdFromString, Timestamp } from './common';

// Invitations to an organization (spec 000 §2 Invitation page, Pending members, §5 Invite, §7).

export const EMAIL_REQUIRED = 'Email is required.';
export const EMAIL_INVALID = 'Please enter a valid email address.';
export const INVITE_SELECTION_MISSING = 'You must select one invite to delete.';

// Deliberately simple: one @, a dot in the domain, no spaces. Deliverability is proven by the mail itself.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const Email = Schema.Trim.pipe(
  Schema.check(
    Schema.isMinLength(1, { message: EMAIL_REQUIRED }),
    Schema.makeFilter((s: string) => s === '' || (EMAIL_PATTERN.test(s) && s.length <= TEXT_LIMITS.email && nameTextProblem(s, 'The email') === null) || EMAIL_INVALID),
  ),
);

/** POST organizations/invitations. project_ids empty or absent = every project of the organization. */
export const InviteBody = Schema.Struct({
  email: Email.annotateKey({ messageMissingKey: EMAIL_REQUIRED }),
  project_ids: Schema.optionalKey(Schema.Array(Id)),
  read_only: Schema.optionalKey(Schema.Boolean),
});
export type InviteBody = typeof InviteBody.Type;

/**
 * Spec §3 "Invite response: userExists, userId, organizationId, error". userExists and userId are no longer sent
 * (they told any owner whether an address has an account, and its id); optional so older answers still decode.
 */
export const InviteResponse = Schema.Struct({
  message: Schema.String,
  invitation_id: Schema.Number,
  user_exists: Schema.optionalKey(Schema.Boolean),
  user_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  organization_id: Schema.Number,
});
export type InviteResponse = typeof InviteResponse.Type;

/** GET organizations/invitations: pending (not accepted) invitations, expired ones included so they can be re-sent. */
export const InvitedUser = Schema.Struct({
  id: Schema.Number,
  inviting_user_name: Schema.String,
  invited_user_email: Schema.String,
  created_at: Timestamp,
  expires_at: Timestamp,
  read_only: Schema.Boolean,
  project_ids: Schema.Array(Schema.Number),
  expired: Schema.Boolean,
});
export type InvitedUser = typeof InvitedUser.Type;
export const InvitedUserList = Schema.Array(InvitedUser);

/** PATCH organizations/invitations {id} and POST organizations/invitations/{id}/resend: re-send with a new expiry. */
export const ResendInvitationBody = Schema.Struct({ id: Id.annotateKey({ messageMissingKey: 'The invitation id is missing' }) });
export type ResendInvitationBody = typeof ResendInvitationBody.Type;

/** DELETE organizations/invites?invite_id= */
export const DeleteInviteQuery = Schema.Struct({
  invite_id: IdFromString.annotateKey({ messageMissingKey: INVITE_SELECTION_MISSING }),
});
export type DeleteInviteQuery = typeof DeleteInviteQuery.Type;

/** POST organizations/invitations/accept?code= (the code may also come in the urlencoded body). */
export const AcceptInvitationQuery = Schema.Struct({
  code: Schema.String.pipe(Schema.check(Schema.isMinLength(1, { message: 'The invitation code is missing' }))).annotateKey({
    messageMissingKey: 'The invitation code is missing',
  }),
});
export type AcceptInvitationQuery = typeof AcceptInvitationQuery.Type;
export const AcceptInvitationResponse = Schema.Struct({
  message: Schema.String,
  organization_id: Schema.Number,
  organization_name: Schema.String,
});
export type AcceptInvitationResponse = typeof AcceptInvitationResponse.Type;
