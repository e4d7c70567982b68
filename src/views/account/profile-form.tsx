// The Profile card's edit form (edit=profile): first and last name, both required; unchanged values are refused
// with the toast 'Please change your info' (spec 000 section 5) before any call, and again by the server.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { PROFILE_UNCHANGED, UpdateProfileBody } from '../../../contract/users';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/field';
import { ValidationError, fieldErrorsOf } from '../../services/errors';
import { toast } from '../../services/toast-store';
import { updateProfile } from '../../services/users';

export function ProfileForm({
  givenName,
  familyName,
  onSaved,
  onCancel,
}: {
  givenName: string;
  familyName: string;
  onSaved: (saved: { givenName: string; familyName: string }) => void;
  onCancel: () => void;
}) {
  const [first, setFirst] = useState(givenName);
  const [last, setLast] = useState(familyName);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: updateProfile,
    onSuccess: (answer) => {
      toast.success(answer.message);
      onSaved({ givenName: answer.user.givenName, familyName: answer.user.familyName });
    },
    onError: (error) => {
      if (error instanceof ValidationError) {
        setErrors(fieldErrorsOf(error));
      }
    },
  });
  return (
    <form
      aria-label="Edit profile"
      noValidate
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      onSubmit={(event) => {
        event.preventDefault();
        const outcome = decodeInput(UpdateProfileBody, { given_name: first, family_name: last });
        if (!outcome.ok) {
          setErrors(outcome.errors);
          return;
        }
        setErrors({});
        if (outcome.value.given_name === givenName && outcome.value.family_name === familyName) {
          toast.error(PROFILE_UNCHANGED);
          return;
        }
        save.mutate({ givenName: outcome.value.given_name, familyName: outcome.value.family_name });
      }}
    >
      <Field label="First name" required errorText={errors.given_name?.[0]}>
        <Input name="given_name" autoComplete="given-name" autoFocus value={first} onChange={(e) => setFirst(e.target.value)} />
      </Field>
      <Field label="Last name" required errorText={errors.family_name?.[0]}>
        <Input name="family_name" autoComplete="family-name" value={last} onChange={(e) => setLast(e.target.value)} />
      </Field>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
        <Button type="button" variant="outline" disabled={save.isPending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
