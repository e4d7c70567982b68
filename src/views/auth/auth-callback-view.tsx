import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { css } from 'styled-system/css';
import { useAuthActor, useAuthSelector } from '../../app/auth-context';
import { Button } from '../../components/ui/button';
import { takeReturnPath } from '../../services/auth';
import { FullPageLoading } from '../shell/full-page-loading';

/** /auth: keycloak-js completes the code exchange during initialisation; then go to the saved return path or /. */
export function AuthCallbackView() {
  const navigate = useNavigate();
  const actor = useAuthActor();
  const state = useAuthSelector((snapshot) => snapshot.value);

  useEffect(() => {
    if (state === 'authenticated') navigate(takeReturnPath(), { replace: true });
  }, [state, navigate]);

  if (state === 'unauthenticated' || state === 'failed') {
    return (
      <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '6' })}>
        <div className={css({ textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' })}>
          <h1 className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>Sign-in was not completed</h1>
          <p className={css({ color: 'fg.muted' })}>The sign-in link may have expired. Please sign in again.</p>
          <Button onClick={() => actor.send({ type: 'auth.login', returnPath: takeReturnPath() })}>Sign in</Button>
        </div>
      </main>
    );
  }
  return <FullPageLoading label="Signing in" />;
}
