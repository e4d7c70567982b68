import { Schema } from 'effect';

// The local card provider's confirm call (the default provider, also the spec's "card mock mode"): the console's
// card form posts the card here instead of to the hosted provider. Shapes follow the hosted provider's SetupIntent.

export const ConfirmSetupIntentBody = Schema.Struct({
  card_number: Schema.String.annotateKey({ messageMissingKey: 'Your card number is incomplete.' }),
  exp_month: Schema.Int.annotateKey({ messageMissingKey: "Your card's expiration date is incomplete." }),
  exp_year: Schema.Int.annotateKey({ messageMissingKey: "Your card's expiration date is incomplete." }),
  cvc: Schema.String.annotateKey({ messageMissingKey: "Your card's security code is incomplete." }),
  name: Schema.optionalKey(Schema.String),
});
export type ConfirmSetupIntentBody = typeof ConfirmSetupIntentBody.Type;

export const ConfirmSetupIntentResponse = Schema.Struct({
  setup_intent: Schema.Struct({
    id: Schema.String,
    status: Schema.Literal('succeeded'),
    payment_method: Schema.String,
  }),
});
export type ConfirmSetupIntentResponse = typeof ConfirmSetupIntentResponse.Type;

/** 402 for a declined or invalid card, as the hosted provider reports it. */
export const CardErrorBody = Schema.Struct({
  error: Schema.Struct({ message: Schema.String, code: Schema.String, param: Schema.optionalKey(Schema.String) }),
});
export type CardErrorBody = typeof CardErrorBody.Type;

/** Test cards of the local provider. Every other number that passes the checks is accepted. */
export const LOCAL_TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  /** Attaches, but every charge is declined (invoices stay open). */
  chargeDeclined: '4000000000000341',
} as const;
