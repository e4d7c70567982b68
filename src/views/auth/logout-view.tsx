import { useEffect } from 'react';
import { css } from 'styled-system/css';
import { useAuthActor, useAuthSelector } from '../../app/auth-context';
import { Button } from '../../components/ui/button';
import { clearSelectedProject } from '../../services/selected-project';
import { FullPageLoading } from '../shell/full-page-loading';

/** /logout: clears the session and the selected project. */
export function LogoutView() {
  const actor = useAuthActor();
  const state = useAuthSelector((snapshot) => snapshot.value);

  useEffect(() => {
    if (state === 'authenticated') actor.send({ type: 'auth.logout' });
    else if (state === 'unauthenticated') clearSelectedProject();
  }, [state, actor]);

  if (state === 'unauthenticated') {
    return (
      <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '6' })}>
        <div className={css({ textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' })}>
          <h1 className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>You are signed out</h1>
          <Button onClick={() => actor.send({ type: 'auth.login', returnPath: '/' })}>Sign in</Button>
        </div>
      </main>
    );
  }
  return <FullPageLoading label="Signing out" />;
}
