// The local payment provider's card fields (card mock mode): number, expiry and CVC, confirmed through the API's
// local payment endpoint. The hosted provider's script is never loaded in this mode.
import { useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import { Field, Input } from '../../components/ui/field';
import { confirmLocalCardSetup } from '../../services/billing';
import type { CardDetailsProps } from './card-details';

const EXPIRY = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/;

export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = EXPIRY.exec(value);
  return match ? { month: Number(match[1]), year: Number(match[2]) } : null;
}

export function LocalCardFields({ disabled, onChange }: CardDetailsProps) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');

  useEffect(() => {
    const parsed = parseExpiry(expiry);
    const complete = number.replace(/\D/g, '').length >= 12 && parsed !== null && /^\d{3,4}$/.test(cvc.trim());
    onChange({
      complete,
      confirm: parsed
        ? (clientSecret) => confirmLocalCardSetup(clientSecret, { cardNumber: number, expMonth: parsed.month, expYear: parsed.year, cvc: cvc.trim() })
        : null,
    });
  }, [number, expiry, cvc, onChange]);

  return (
    <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '2fr 1fr 1fr' }, gap: '3' })}>
      <Field label="Card number" disabled={disabled}>
        <Input inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" value={number} onChange={(e) => setNumber(e.target.value)} />
      </Field>
      <Field label="Expiry (MM/YY)" disabled={disabled}>
        <Input inputMode="numeric" autoComplete="cc-exp" placeholder="12/34" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
      </Field>
      <Field label="CVC" disabled={disabled}>
        <Input inputMode="numeric" autoComplete="cc-csc" placeholder="123" value={cvc} onChange={(e) => setCvc(e.target.value)} />
      </Field>
    </div>
  );
}
