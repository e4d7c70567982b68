import { Schema } from 'effect';
import { nameTextChecks, TEXT_LIMITS } from './text-rules';

// The signed-in user's own account (spec 000 §2 Account Settings, §5 Profile and Password, §7 Users).

export const FIRST_NAME_REQUIRED = 'The first name is required.';
export const LAST_NAME_REQUIRED = 'The last name is required.';
export const PROFILE_UNCHANGED = 'Please change your info';
export const PASSWORDS_DO_NOT_MATCH = 'The passwords do not match.';
export const PASSWORD_CONFIRMATION_REQUIRED = 'Please confirm the new password.';
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*';

export const PasswordRuleMessage = {
  length: 'The new password must have at least 8 characters.',
  lower: 'The new password must include at least 1 lower case letter.',
  upper: 'The new password must include at least 1 upper case letter.',
  digit: 'The new password must include at least 1 number.',
  special: `The new password must include at least 1 special character (${PASSWORD_SPECIAL_CHARACTERS}).`,
} as const;

/** A new password: every rule is checked so the form can list every unmet one at once. */
export const NewPassword = Schema.String.pipe(
  Schema.check(
    Schema.isMinLength(8, { message: PasswordRuleMessage.length }),
    Schema.isPattern(/[a-z]/, { message: PasswordRuleMessage.lower }),
    Schema.isPattern(/[A-Z]/, { message: PasswordRuleMessage.upper }),
    Schema.isPattern(/[0-9]/, { message: PasswordRuleMessage.digit }),
    Schema.isPattern(/[!@#$%^&*]/, { message: PasswordRuleMessage.special }),
  ),
);

/** PATCH users/password (wire). */
/** PATCH users/password's 401 message when the sign-in is too old (the body carries reason "reauthentication_required"). */
export const REAUTHENTICATION_REQUIRED = 'Please sign in again';
export const REAUTHENTICATION_REASON = 'reauthentication_required';

export const UpdatePasswordBody = Schema.Struct({
  password: NewPassword.annotateKey({ messageMissingKey: PasswordRuleMessage.length }),
});
export type UpdatePasswordBody = typeof UpdatePasswordBody.Type;

/** The console's password form (field names of the spec); sends `{ password: newPassword }`. */
export const PasswordForm = Schema.Struct({
  newPassword: NewPassword.annotateKey({ messageMissingKey: PasswordRuleMessage.length }),
  newPasswordVerification: Schema.String.pipe(
    Schema.check(Schema.isMinLength(1, { message: PASSWORD_CONFIRMATION_REQUIRED })),
  ).annotateKey({ messageMissingKey: PASSWORD_CONFIRMATION_REQUIRED }),
}).pipe(
  Schema.check(
    Schema.makeFilter((form: { newPassword: string; newPasswordVerification: string }) =>
      form.newPasswordVerification === '' || form.newPassword === form.newPasswordVerification
        ? true
        : { path: ['newPasswordVerification'], issue: PASSWORDS_DO_NOT_MATCH },
    ),
  ),
);
export type PasswordForm = typeof PasswordForm.Type;

const requiredName = (message: string, label: string) =>
  Schema.Trim.pipe(Schema.check(Schema.isMinLength(1, { message }), ...nameTextChecks(TEXT_LIMITS.personName, label))).annotateKey({
    messageMissingKey: message,
  });

/** PATCH users. `name` (display name) is accepted for compatibility and otherwise derived from the two parts. */
export const UpdateProfileBody = Schema.Struct({
  given_name: requiredName(FIRST_NAME_REQUIRED, 'The first name'),
  family_name: requiredName(LAST_NAME_REQUIRED, 'The last name'),
  name: Schema.optionalKey(Schema.String),
});
export type UpdateProfileBody = typeof UpdateProfileBody.Type;

export const UserProfile = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  given_name: Schema.String,
  family_name: Schema.String,
  name: Schema.String,
  email_verified: Schema.Boolean,
  connection: Schema.String,
});
export type UserProfile = typeof UserProfile.Type;
export const UpdateProfileResponse = Schema.Struct({ message: Schema.String, user: UserProfile });
export type UpdateProfileResponse = typeof UpdateProfileResponse.Type;

/** DELETE users when payments are pending: 402 with a link where they can be paid. */
export const PendingPaymentsBody = Schema.Struct({
  message: Schema.String,
  description: Schema.String,
  payment_link: Schema.String,
});
export type PendingPaymentsBody = typeof PendingPaymentsBody.Type;

/** The connection of accounts that sign up with email and password; only they edit their profile and password. */
export const PASSWORD_CONNECTION_NAME = 'Username-Password-Authentication';
