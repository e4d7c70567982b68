import { Schema } from 'effect';
import { maxTextCheck, nameTextChecks, TEXT_LIMITS } from './text-rules';
import { Id, IdFromString, Timestamp, requiredString } from './common';
import { TAX_ID_TYPE_CODES, taxIdTypesFor, taxIdValueProblem } from './tax-ids';

// Billing accounts, cards and tax ids (spec 000 §3 BillingAccount, §5 rules, §7 Billing calls).

export const BILLING_ACCOUNT_NAME_MESSAGE = 'The billing account name must have at least 3 characters';
export const BILLING_ACCOUNT_ID_MISSING = 'The billing account id is missing';
export const PAYMENT_METHOD_MISSING = 'The payment method is missing';
export const TAX_ID_TYPE_MISSING = 'The tax id type is missing';
export const TAX_ID_VALUE_MISSING = 'The tax id value is missing';
export const TAX_ID_COUNTRY_MISSING = 'The country is required.';
export const TAX_ID_TYPE_NOT_FOR_COUNTRY = 'This tax id type is not available for the selected country';
export const TAX_ID_TYPE_UNKNOWN = 'Unknown tax id type';

const billingAccountId = Id.annotateKey({ messageMissingKey: BILLING_ACCOUNT_ID_MISSING });

/** POST billing/ */
export const CreateBillingAccountBody = Schema.Struct({
  name: Schema.Trim.pipe(
    Schema.check(Schema.isMinLength(3, { message: BILLING_ACCOUNT_NAME_MESSAGE }), ...nameTextChecks(TEXT_LIMITS.billingAccountName, 'The billing account name')),
  ).annotateKey({
    messageMissingKey: BILLING_ACCOUNT_NAME_MESSAGE,
  }),
  default: Schema.optionalKey(Schema.Boolean),
  // Opened by the create-organization wizard: until an organization uses it, the owner may resume it (optional,
  // additive to the spec's {name, default}; docs/organizations.md).
  for_organization: Schema.optionalKey(Schema.Boolean),
});
export type CreateBillingAccountBody = typeof CreateBillingAccountBody.Type;
export const CreateBillingAccountResponse = Schema.Struct({ message: Schema.String, billing_account_id: Schema.Number });
export type CreateBillingAccountResponse = typeof CreateBillingAccountResponse.Type;

export const TaxId = Schema.Struct({
  id: Schema.Number,
  country: Schema.NullOr(Schema.String),
  type: Schema.String,
  value: Schema.String,
  created_at: Timestamp,
});
export type TaxId = typeof TaxId.Type;

export const BillingAccount = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  default: Schema.Boolean,
  payment_method_id: Schema.NullOr(Schema.String),
  /** e.g. 'visa •••• 4242' when the provider told us; null otherwise. */
  payment_method_label: Schema.NullOr(Schema.String),
  tax_ids: Schema.Array(TaxId),
});
export type BillingAccount = typeof BillingAccount.Type;

/**
 * GET billing/current: the account that pays in the current mode (the organization's, or the user's default one).
 * `manageable` is false for organization members who are not owners: they may not see or change it.
 */
export const CurrentBillingResponse = Schema.Struct({
  billing_account: Schema.NullOr(BillingAccount),
  manageable: Schema.Boolean,
});
export type CurrentBillingResponse = typeof CurrentBillingResponse.Type;

/** GET stripe/billing-account-id?name= : the id of the user's billing account with that name, if any. */
export const BillingAccountIdQuery = Schema.Struct({
  name: Schema.Trim.pipe(Schema.check(Schema.isMinLength(1, { message: 'The billing account name is missing' }))).annotateKey({
    messageMissingKey: 'The billing account name is missing',
  }),
});
// has_payment_method lets the create-organization wizard resume after a lost answer without asking for the card again.
// unfinished: the account is the caller's own, opened for an organization that was never created; the wizard offers
// to resume it instead of calling the name taken.
export const BillingAccountIdResponse = Schema.Struct({
  billing_account_id: Schema.NullOr(Schema.Number),
  has_payment_method: Schema.Boolean,
  unfinished: Schema.optionalKey(Schema.Boolean),
});
export type BillingAccountIdResponse = typeof BillingAccountIdResponse.Type;

/** GET billing/unfinished: the caller's unfinished billing accounts, newest first, with the date each is removed. */
export const UnfinishedBillingAccount = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  has_payment_method: Schema.Boolean,
  created_at: Timestamp,
  removed_after: Timestamp,
});
export type UnfinishedBillingAccount = typeof UnfinishedBillingAccount.Type;
export const UnfinishedBillingAccountList = Schema.Struct({ billing_accounts: Schema.Array(UnfinishedBillingAccount) });

/** GET stripe/config: the public half of the card provider's settings (public call; email/username when signed in). */
export const PaymentConfigResponse = Schema.Struct({
  publishable_key: Schema.NullOr(Schema.String),
  mock: Schema.Boolean,
  email: Schema.NullOr(Schema.String),
  username: Schema.NullOr(Schema.String),
});
export type PaymentConfigResponse = typeof PaymentConfigResponse.Type;

/** POST billing/payment-methods/setup */
export const SetupPaymentMethodBody = Schema.Struct({ billing_account_id: billingAccountId });
export type SetupPaymentMethodBody = typeof SetupPaymentMethodBody.Type;
export const SetupPaymentMethodResponse = Schema.Struct({ client_secret: Schema.String });
export type SetupPaymentMethodResponse = typeof SetupPaymentMethodResponse.Type;

/** POST billing/payment-methods/attach */
export const AttachPaymentMethodBody = Schema.Struct({
  billing_account_id: billingAccountId,
  payment_method_id: requiredString(PAYMENT_METHOD_MISSING),
});
export type AttachPaymentMethodBody = typeof AttachPaymentMethodBody.Type;
export const AttachPaymentMethodResponse = Schema.Struct({ message: Schema.String, payment_method_id: Schema.String });

/** POST billing/tax-id. country is optional on the wire (spec shape), but when given the type must belong to it. */
export const AddTaxIdBody = Schema.Struct({
  billing_account_id: billingAccountId,
  country: Schema.optionalKey(Schema.String),
  type: requiredString(TAX_ID_TYPE_MISSING).pipe(
    Schema.check(Schema.makeFilter((t: string) => t === '' || TAX_ID_TYPE_CODES.includes(t) || TAX_ID_TYPE_UNKNOWN)),
  ),
  value: Schema.Trim.pipe(Schema.check(Schema.isMinLength(1, { message: TAX_ID_VALUE_MISSING }), ...nameTextChecks(TEXT_LIMITS.taxIdValue, 'The tax id value'))).annotateKey({
    messageMissingKey: TAX_ID_VALUE_MISSING,
  }),
}).pipe(
  Schema.check(
    Schema.makeFilter((body: { country?: string; type: string }) =>
      body.country === undefined || taxIdTypesFor(body.country).some((t) => t.type === body.type)
        ? true
        : { path: ['type'], issue: TAX_ID_TYPE_NOT_FOR_COUNTRY },
    ),
  ),
  Schema.check(
    Schema.makeFilter((body: { country?: string; type: string; value: string }) => {
      const problem = taxIdValueProblem(body.type, body.value, body.country);
      return problem === null ? true : { path: ['value'], issue: problem };
    }),
  ),
);
export type AddTaxIdBody = typeof AddTaxIdBody.Type;
export const AddTaxIdResponse = Schema.Struct({ message: Schema.String, tax_id: TaxId });

/** The card form of the console (address part); the card itself is checked by the payment provider. */
export const CardAddressForm = Schema.Struct({
  address: requiredString('The address is required').pipe(Schema.check(...nameTextChecks(TEXT_LIMITS.addressLine, 'The address'))),
  address2: Schema.optionalKey(Schema.String.pipe(Schema.check(maxTextCheck(TEXT_LIMITS.addressLine)))),
  city: requiredString('The city is required').pipe(Schema.check(...nameTextChecks(TEXT_LIMITS.city, 'The city'))),
  postal_code: requiredString('The postal code is required').pipe(Schema.check(...nameTextChecks(TEXT_LIMITS.postalCode, 'The postal code'))),
  country: requiredString('The country is required.'),
  phone: requiredString('The phone is required').pipe(Schema.check(...nameTextChecks(TEXT_LIMITS.phone, 'The phone'))),
  terms: Schema.Literal(true).annotateKey({ messageMissingKey: 'You must accept the terms' }),
});
export type CardAddressForm = typeof CardAddressForm.Type;

export const BillingAccountIdFromQuery = Schema.Struct({ billing_account_id: IdFromString });

/** DELETE billing/tax-id?billing_account_id=&tax_id= */
export const RemoveTaxIdQuery = Schema.Struct({ billing_account_id: IdFromString, tax_id: IdFromString });
