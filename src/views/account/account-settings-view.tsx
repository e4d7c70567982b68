// /account and /{projectSlug}/account: Account Settings (spec 000 section 2): the Profile card (edit=profile, only for
// accounts that signed up with email and password), the Security card (edit=password, password-change machine) and
// the way to /account/delete (account-deletion machine, rendered by AccountDeleteView over this page).
import { useActorRef } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { PASSWORD_CONNECTION_NAME } from '../../../contract/users';
import { useCurrentUser } from '../../app/auth-context';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { passwordChangeMachine } from '../../machines/password-change/password-change.machine';
import { reauthenticate, refreshSessionNow, signInTooOldForPasswordChange } from '../../services/auth';
import { toast } from '../../services/toast-store';
import { updatePassword } from '../../services/users';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { useUrlValue } from '../url-state/use-url-state';

export const SOCIAL_PROFILE_TEXT = 'Your profile and password are managed by the provider you signed up with.';

export function AccountSettingsView({ children }: { children?: ReactNode }) {
  const user = useCurrentUser();
  const [edit, setEdit] = useUrlValue('edit');
  const passwordAccount = user.connection === PASSWORD_CONNECTION_NAME;
  // The names just saved, shown at once (the token is renewed in the background and carries them too).
  const [saved, setSaved] = useState<{ givenName: string; familyName: string } | null>(null);
  const givenName = saved?.givenName ?? user.givenName;
  const familyName = saved?.familyName ?? user.familyName;

  const password = useActorRef(
    passwordChangeMachine.provide({
      actors: {
        updatePassword: fromPromise(({ input }) => updatePassword(input.password)),
        reauthenticate: fromPromise(() => reauthenticate('/account?edit=password')),
      },
      actions: { notifyChanged: (_, p) => toast.success(p.message) },
    }),
  );
  // edit=password opens the form (reload-proof); closing it removes the parameter.
  useEffect(() => {
    if (edit === 'password' && passwordAccount && password.getSnapshot().matches('closed')) password.send({ type: 'password.open', reauthenticate: signInTooOldForPasswordChange() });
    if (edit !== 'password' && !password.getSnapshot().matches('closed') && !password.getSnapshot().matches('saving')) password.send({ type: 'password.cancel' });
  }, [edit, passwordAccount, password]);
  useEffect(() => {
    const subscription = password.subscribe((snapshot) => {
      if (snapshot.matches('closed')) setEdit((current) => (current === 'password' ? null : current));
    });
    return () => subscription.unsubscribe();
  }, [password, setEdit]);

  return (
    <main className={css({ maxW: '4xl', mx: 'auto', p: { base: '4', md: '8' }, display: 'flex', flexDirection: 'column', gap: '6' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>Account Settings</h1>
      <Card
        title="Profile"
        footer={
          passwordAccount && edit !== 'profile' ? (
            <Button variant="outline" onClick={() => setEdit('profile')}>
              Edit profile
            </Button>
          ) : undefined
        }
      >
        {passwordAccount && edit === 'profile' ? (
          <ProfileForm
            givenName={givenName}
            familyName={familyName}
            onCancel={() => setEdit(null)}
            onSaved={(names) => {
              setSaved(names);
              setEdit(null);
              void refreshSessionNow().catch(() => undefined);
            }}
          />
        ) : (
          <dl className={css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '2', columnGap: '6' })}>
            <dt className={css({ color: 'fg.muted' })}>First name</dt>
            <dd>{givenName || '—'}</dd>
            <dt className={css({ color: 'fg.muted' })}>Last name</dt>
            <dd>{familyName || '—'}</dd>
            <dt className={css({ color: 'fg.muted' })}>Email</dt>
            <dd>{user.email}</dd>
          </dl>
        )}
        {!passwordAccount && <p className={css({ color: 'fg.muted', mt: '3' })}>{SOCIAL_PROFILE_TEXT}</p>}
      </Card>

      {passwordAccount && (
        <Card
          title="Security"
          description="Changing the password signs you out of your other sessions."
          footer={
            edit !== 'password' ? (
              <Button variant="outline" onClick={() => setEdit('password')}>
                Change password
              </Button>
            ) : undefined
          }
        >
          <PasswordForm actor={password} />
          {edit !== 'password' && <p className={css({ color: 'fg.muted' })}>Password: ••••••••</p>}
        </Card>
      )}

      <Card title="Delete account" description="Delete your account and everything only you use.">
        <div>
          <Link to="/account/delete" className={css({ color: 'fg.error', textDecoration: 'underline' })}>
            Delete account
          </Link>
        </div>
      </Card>
      {children}
    </main>
  );
}
