// Form intents (spec 000 section 5): a form posts to its route with an `intent` field, and only these are allowed.
// Anything else is refused before a call is made: 'Invalid intent.' as an error toast on the project settings form,
// 'This operation is not valid' (400) on the billing and account forms.
export const FORM_INTENTS = {
  createOrganization: 'create-organization',
  createBillingAccount: 'create-billing-account',
  addPaymentMethod: 'add-payment-method',
  addTaxId: 'add-tax-id',
  updateProfile: 'update-profile',
  updatePassword: 'update-password',
  deleteProject: 'delete-project',
  addUserToProject: 'add-user-to-project',
  createProject: 'create-project',
} as const;

export type FormIntent = (typeof FORM_INTENTS)[keyof typeof FORM_INTENTS];

/** True when the posted intent is one the route accepts. */
export function isAllowedIntent(intent: FormDataEntryValue | null, allowed: readonly FormIntent[]): intent is FormIntent {
  return typeof intent === 'string' && (allowed as readonly string[]).includes(intent);
}
