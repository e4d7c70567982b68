// The Tax Information form (edit=tax-id): country, then type where the country has several (the table of
// contract/tax-ids.ts), then the value, checked against the type's format by the same schema the API uses.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { AddTaxIdBody } from '../../../contract/billing';
import { taxIdTypesFor } from '../../../contract/tax-ids';
import { Button } from '../../components/ui/button';
import { Combobox } from '../../components/ui/combobox';
import { Field, Input } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { ValidationError, fieldErrorsOf } from '../../services/errors';
import { addTaxId } from '../../services/billing';
import { toast } from '../../services/toast-store';
import { countryItems } from '../billing-card/countries';

export function TaxIdForm({ billingAccountId, onSaved, onCancel }: { billingAccountId: number; onSaved: () => void; onCancel: () => void }) {
  const [country, setCountry] = useState('');
  const [chosenType, setChosenType] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const types = country ? taxIdTypesFor(country) : [];
  // A country with one type needs no choice.
  const type = types.length === 1 ? types[0].type : chosenType;
  const typeInfo = types.find((t) => t.type === type);
  const items = countryItems().filter((item) => taxIdTypesFor(item.value).length > 0);
  const save = useMutation({
    mutationFn: addTaxId,
    onSuccess: (answer) => {
      toast.success(answer.message);
      onSaved();
    },
    onError: (error) => {
      if (error instanceof ValidationError) {
        setErrors(fieldErrorsOf(error));
      }
    },
  });
  return (
    <form
      aria-label="Add a tax id"
      noValidate
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      onSubmit={(event) => {
        event.preventDefault();
        if (!country) {
          setErrors({ country: ['The country is required.'] });
          return;
        }
        const outcome = decodeInput(AddTaxIdBody, { billing_account_id: billingAccountId, country, type, value });
        if (!outcome.ok) {
          setErrors(outcome.errors);
          return;
        }
        setErrors({});
        save.mutate({ billingAccountId, country, type: outcome.value.type, value: outcome.value.value });
      }}
    >
      <div>
        <Combobox
          label="Country"
          items={items}
          value={country ? [country] : []}
          onValueChange={(next) => {
            setCountry(next[0] ?? '');
            setChosenType('');
          }}
          placeholder="Search a country"
        />
        {errors.country && (
          <p role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
            {errors.country[0]}
          </p>
        )}
      </div>
      {types.length > 1 && (
        <Select
          label="Tax id type"
          items={types.map((t) => ({ value: t.type, label: `${t.description} (${t.type})` }))}
          value={chosenType ? [chosenType] : []}
          onValueChange={(next) => setChosenType(next[0] ?? '')}
          placeholder="Select a type"
          errorText={errors.type?.[0]}
        />
      )}
      {types.length === 1 && <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>Type: {types[0].description}</p>}
      <Field label="Tax id" required errorText={errors.value?.[0]} helperText={typeInfo ? `For example ${typeInfo.example}` : undefined}>
        <Input name="value" autoComplete="off" value={value} placeholder={typeInfo?.example} onChange={(e) => setValue(e.target.value)} />
      </Field>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
        <Button type="button" variant="outline" disabled={save.isPending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Add tax id
        </Button>
      </div>
    </form>
  );
}
