import { Schema } from 'effect';

// Error bodies of the API. The console reads `message` (or `error`, or `details`) and shows `description`.

/** 400, 401, 403, 404, 409, 5xx: what went wrong and what the person can do about it. */
export const ApiErrorBody = Schema.Struct({
  message: Schema.String,
  description: Schema.String,
});
export type ApiErrorBody = typeof ApiErrorBody.Type;

/** 422: a rule of the product was broken; `details` maps each field to its messages. */
export const ValidationErrorBody = Schema.Struct({
  message: Schema.String,
  description: Schema.optionalKey(Schema.String),
  details: Schema.Record(Schema.String, Schema.Array(Schema.String)),
});
export type ValidationErrorBody = typeof ValidationErrorBody.Type;

// Texts of the spec that the server and the console both use.
export const ErrorText = {
  invalidOperation: 'This operation is not valid',
  invalidOperationBillingDescription:
    'You tried to perform an invalid operation. Nothing will be changed regarding your billing information. Please reload the page and try again.',
  invalidOperationAccountDescription:
    'You tried to perform an invalid operation. Nothing will be changed regarding your account information. Please reload the page and try again.',
  invitationInvalid: 'Invitation expired or invalid.',
  invitationInvalidDescription: 'Invitation expired or invalid. Inviting user must re-send invitation.',
  invitationOtherEmail: 'This invitation is for another email address.',
  invitationOtherEmailDescription: 'Sign in with the email address the invitation was sent to, then open the link again.',
  invitationUnverified: 'Please verify your email address first.',
  invitationUnverifiedDescription: 'Open the verification link we sent to your email address, then accept the invitation.',
  alreadyOwnsOrganization: 'You already own an organization and cannot create more.',
  onlyOrganizationMembers: 'Only organization members can be added',
  organizationModeOnly:
    'Inviting additional users to your project is only available in organization mode. Switch to an organization to add members.',
  pendingPayments: 'You have pending payments',
  invalidIntent: 'Invalid intent.',
  projectDeletionOrganizationOnly: 'Deleting a project will remove all its data and users. Projects can only be deleted in organization mode.',
  projectDeletionOwnerOnly: 'Only the owner of the project can delete it.',
  projectDeletionHepicActive: 'Hepic is active in this project. Please ask support to disable it before deleting the project.',
  unknownError: 'Unknown error',
} as const;
