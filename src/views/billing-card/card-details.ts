import type { BillingDetails, CardConfirmation } from '../../machines/card-setup/card-setup.machine';

/**
 * What a card-details part (the local provider's fields, or the hosted provider's card element) tells the form:
 * whether the card is complete, and how to confirm it against a setup intent. The card itself never leaves the
 * part, so the hosted provider's element can keep it out of the console entirely.
 */
export interface CardDetailsState {
  complete: boolean;
  confirm: ((clientSecret: string, billingDetails: BillingDetails) => Promise<CardConfirmation>) | null;
}

export interface CardDetailsProps {
  disabled: boolean;
  onChange: (state: CardDetailsState) => void;
}
