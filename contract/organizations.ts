import { Schema } from 'effect';
import { maxTextCheck, TEXT_LIMITS } from './text-rules';
import { Id, IdFromString, PersonFields, Timestamp, userId } from './common';
import { BILLING_ACCOUNT_ID_MISSING } from './billing';

// Organizations, their members and roles (spec 000 §2 Organization Settings, §3, §5, §7 Organizations).

export const ORGANIZATION_NAME_PATTERN_MESSAGE = 'Organization name must match A-z 0-9 -_';
export const ORGANIZATION_NAME_LENGTH_MESSAGE = 'Must be at least 3 characters';

export const OrganizationName = Schema.Trim.pipe(
  Schema.check(
    Schema.isPattern(/^[A-Za-z0-9 _-]*$/, { message: ORGANIZATION_NAME_PATTERN_MESSAGE }),
    Schema.isMinLength(3, { message: ORGANIZATION_NAME_LENGTH_MESSAGE }),
    maxTextCheck(TEXT_LIMITS.organizationName),
  ),
);

/** POST organizations/ */
export const CreateOrganizationBody = Schema.Struct({
  display_name: OrganizationName.annotateKey({ messageMissingKey: ORGANIZATION_NAME_LENGTH_MESSAGE }),
  billing_account_id: Id.annotateKey({ messageMissingKey: BILLING_ACCOUNT_ID_MISSING }),
});
export type CreateOrganizationBody = typeof CreateOrganizationBody.Type;
export const CreateOrganizationResponse = Schema.Struct({ message: Schema.String, organization_id: Schema.Number });
export type CreateOrganizationResponse = typeof CreateOrganizationResponse.Type;

/** An organization as the current user sees it: read_only is true when the user (or the organization) is read-only. */
export const Organization = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  read_only: Schema.Boolean,
  owner: Schema.Boolean,
});
export type Organization = typeof Organization.Type;
/** GET users/organizations (member of) and GET organizations/users/owner (owned). */
export const OrganizationList = Schema.Array(Organization);

/** GET organizations/users: active members, owners first. */
export const OrganizationUser = Schema.Struct({
  ...PersonFields,
  read_only: Schema.Boolean,
  owner: Schema.Boolean,
});
export type OrganizationUser = typeof OrganizationUser.Type;
export const OrganizationUserList = Schema.Array(OrganizationUser);

/** GET organizations/trial */
export const OrganizationTrialResponse = Schema.Struct({
  remaining_days: Schema.Number,
  trial_ends_at: Schema.NullOr(Timestamp),
});
export type OrganizationTrialResponse = typeof OrganizationTrialResponse.Type;

/** GET users/promote?user_id&read_only&organization_id: an owner switches a non-owner between read-only and read-write. */
export const PromoteQuery = Schema.Struct({
  user_id: userId('The user id is required.'),
  organization_id: IdFromString.annotateKey({ messageMissingKey: 'The organization id is required.' }),
  read_only: Schema.Literals(['true', 'false']).annotateKey({ messageMissingKey: 'The role is required.' }),
});
export type PromoteQuery = typeof PromoteQuery.Type;
