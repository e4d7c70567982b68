// The card form (spec 000 section 2 Billing Settings card form, section 5 card rules), driven by a card-setup actor.
// Used by the create-organization wizard and by Billing Settings. Every typed value lives here, above the machine's
// states, so nothing typed is lost when a step fails.
import { useSelector } from '@xstate/react';
import { useCallback, useState, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { CardAddressForm } from '../../../contract/billing';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Combobox } from '../../components/ui/combobox';
import { Field, Input } from '../../components/ui/field';
import { settings } from '../../config/settings';
import type { BillingDetails, CardSetupMachine } from '../../machines/card-setup/card-setup.machine';
import type { CardDetailsProps, CardDetailsState } from './card-details';
import { countryItems } from './countries';

/** Under the terms box when the form was sent without it ticked (the spec's form message names no field). */
export const TERMS_REQUIRED_MESSAGE = "Please accept the payment provider's Privacy Policy and Terms of Service.";

const PENDING_TEXT = {
  requestingSetup: 'Preparing the card setup…',
  confirmingCard: 'Confirming your card…',
  attaching: 'Saving your card…',
} as const;

export interface CardFormValues extends BillingDetails {
  terms: boolean;
}

const EMPTY: CardFormValues = { address: '', address2: '', city: '', postalCode: '', country: '', phone: '', terms: false };

/** The address part's messages, from the shared contract (the terms checkbox is checked separately). */
export function cardAddressErrors(values: CardFormValues): FieldErrors {
  const outcome = decodeInput(CardAddressForm, {
    address: values.address.trim(),
    address2: values.address2,
    city: values.city.trim(),
    postal_code: values.postalCode.trim(),
    country: values.country,
    phone: values.phone.trim(),
    ...(values.terms ? { terms: true } : {}),
  });
  return outcome.ok ? {} : outcome.errors;
}

export interface CardFormProps {
  actor: ActorRefFrom<CardSetupMachine>;
  /** Renders the card details part (local fields or the hosted card element). */
  renderDetails: (props: CardDetailsProps) => ReactNode;
  /** Receives the details part's confirm function, for the actor's confirmCard. */
  onDetailsChange?: (state: CardDetailsState) => void;
  submitLabel?: string;
  /** Extra buttons next to submit (for example Cancel in the Billing Settings modal). */
  secondaryAction?: ReactNode;
}

export function CardForm({ actor, renderDetails, onDetailsChange, submitLabel = 'Save card', secondaryAction }: CardFormProps) {
  const state = useSelector(actor, (s) => s);
  const [values, setValues] = useState<CardFormValues>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [cardComplete, setCardComplete] = useState(false);

  const handleDetails = useCallback(
    (details: CardDetailsState) => {
      setCardComplete(details.complete);
      onDetailsChange?.(details);
    },
    [onDetailsChange],
  );

  const pending = state.matches('requestingSetup') || state.matches('confirmingCard') || state.matches('attaching');
  const pendingText = state.matches('requestingSetup')
    ? PENDING_TEXT.requestingSetup
    : state.matches('confirmingCard')
      ? PENDING_TEXT.confirmingCard
      : state.matches('attaching')
        ? PENDING_TEXT.attaching
        : null;
  const errors = submitted ? cardAddressErrors(values) : {};
  const set = (key: keyof CardFormValues) => (value: string | boolean) => setValues((current) => ({ ...current, [key]: value }));
  const first = (key: string) => errors[key]?.[0];

  if (state.matches('attached')) {
    return (
      <p role="status" className={css({ color: 'fg.muted' })}>
        The card is saved.
      </p>
    );
  }

  return (
    <form
      aria-label="Card"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        const complete = Object.keys(cardAddressErrors(values)).length === 0 && values.terms && cardComplete;
        const { terms: _terms, ...billingDetails } = values;
        actor.send({ type: 'card.submit', complete, billingDetails: { ...billingDetails, address2: billingDetails.address2.trim() } });
      }}
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      <fieldset disabled={pending} className={css({ display: 'flex', flexDirection: 'column', gap: '4', border: 'none', p: '0', m: '0' })}>
        <Field label="Address" required errorText={first('address')}>
          <Input autoComplete="address-line1" value={values.address} onChange={(e) => set('address')(e.target.value)} />
        </Field>
        <Field label="Address line 2 (optional)">
          <Input autoComplete="address-line2" value={values.address2} onChange={(e) => set('address2')(e.target.value)} />
        </Field>
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' })}>
          <Field label="City" required errorText={first('city')}>
            <Input autoComplete="address-level2" value={values.city} onChange={(e) => set('city')(e.target.value)} />
          </Field>
          <Field label="Postal code" required errorText={first('postal_code')}>
            <Input autoComplete="postal-code" value={values.postalCode} onChange={(e) => set('postalCode')(e.target.value)} />
          </Field>
        </div>
        <Combobox
          label="Country"
          required
          errorText={first('country')}
          items={countryItems()}
          value={values.country ? [values.country] : []}
          onValueChange={(value) => set('country')(value[0] ?? '')}
          placeholder="Search a country"
          disabled={pending}
        />
        <Field label="Phone" required errorText={first('phone')}>
          <Input type="tel" autoComplete="tel" value={values.phone} onChange={(e) => set('phone')(e.target.value)} />
        </Field>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <span className={css({ fontSize: 'sm', fontWeight: 'medium' })}>Card details</span>
          {renderDetails({ disabled: pending, onChange: handleDetails })}
        </div>
        <div>
          <Checkbox checked={values.terms} onCheckedChange={(checked) => set('terms')(checked)} errorText={submitted && !values.terms ? TERMS_REQUIRED_MESSAGE : undefined} disabled={pending}>
            I accept the payment provider's{' '}
            <a href={settings.paymentPrivacyUrl} target="_blank" rel="noopener noreferrer" className={css({ textDecoration: 'underline' })}>
              Privacy Policy
            </a>{' '}
            and{' '}
            <a href={settings.paymentTermsUrl} target="_blank" rel="noopener noreferrer" className={css({ textDecoration: 'underline' })}>
              Terms of Service
            </a>
          </Checkbox>
        </div>
      </fieldset>
      {state.matches({ editing: 'incomplete' }) && <Alert status="warning">{state.context.error}</Alert>}
      {state.matches({ editing: 'failed' }) && (
        <Alert status="error" title="Your card could not be saved">
          {state.context.error}
        </Alert>
      )}
      {pendingText && (
        <p role="status" className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          {pendingText}
        </p>
      )}
      <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
        {secondaryAction}
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
