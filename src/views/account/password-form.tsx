// The Security card's edit form (edit=password), driven by a password-change actor. The typed values live here, above
// the machine's states, so a refused change leaves the form as the user filled it.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/field';
import { REAUTHENTICATION_TEXT, type PasswordChangeMachine } from '../../machines/password-change/password-change.machine';

export const PASSWORD_RULES_HELP = 'At least 8 characters, with a lower case letter, an upper case letter, a number and one of !@#$%^&*.';

export function PasswordForm({ actor }: { actor: ActorRefFrom<PasswordChangeMachine> }) {
  const state = useSelector(actor, (s) => s);
  const [newPassword, setNewPassword] = useState('');
  const [newPasswordVerification, setNewPasswordVerification] = useState('');
  const saving = state.matches('saving');
  if (state.matches('closed')) return null;
  if (state.matches('reauthentication') || state.matches('redirecting')) {
    const redirecting = state.matches('redirecting');
    // A step of its own before the form: the login page again, then back here with the form open.
    return (
      <section aria-label="Confirm it is you" className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        <Alert status="info">{REAUTHENTICATION_TEXT}</Alert>
        {state.context.error && <Alert status="error">{state.context.error}</Alert>}
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
          <Button type="button" variant="outline" disabled={redirecting} onClick={() => actor.send({ type: 'password.cancel' })}>
            Cancel
          </Button>
          <Button type="button" autoFocus loading={redirecting} onClick={() => actor.send({ type: 'password.reauthenticate' })}>
            Sign in again
          </Button>
        </div>
      </section>
    );
  }
  const errors = state.context.errors;
  return (
    <form
      aria-label="Change password"
      noValidate
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'password.submit', values: { newPassword, newPasswordVerification } });
      }}
    >
      <Field label="New password" required errorText={errors.newPassword?.[0]} helperText={errors.newPassword ? undefined : PASSWORD_RULES_HELP}>
        <Input type="password" name="newPassword" autoComplete="new-password" autoFocus value={newPassword} readOnly={saving} onChange={(e) => setNewPassword(e.target.value)} />
      </Field>
      <Field label="Confirm new password" required errorText={errors.newPasswordVerification?.[0]}>
        <Input
          type="password"
          name="newPasswordVerification"
          autoComplete="new-password"
          value={newPasswordVerification}
          readOnly={saving}
          onChange={(e) => setNewPasswordVerification(e.target.value)}
        />
      </Field>
      {state.matches({ editing: 'failed' }) && <Alert status="error">{state.context.error}</Alert>}
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
        <Button type="button" variant="outline" disabled={saving} onClick={() => actor.send({ type: 'password.cancel' })}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          Change password
        </Button>
      </div>
    </form>
  );
}
