import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { css } from 'styled-system/css';
import { useAuthActor, useAuthSelector } from '../../app/auth-context';
import { Button } from '../../components/ui/button';
import { FullPageLoading } from '../shell/full-page-loading';

/** Protected content renders only once authenticated; a loading element shows before (spec 000 section 2). */
export function RequireAuth() {
  const actor = useAuthActor();
  const location = useLocation();
  const state = useAuthSelector((snapshot) => snapshot.value);
  const error = useAuthSelector((snapshot) => snapshot.context.keyCloakError);

  useEffect(() => {
    if (state === 'unauthenticated') actor.send({ type: 'auth.login', returnPath: `${location.pathname}${location.search}` });
  }, [actor, state, location.pathname, location.search]);

  if (state === 'authenticated') return <Outlet />;
  if (state === 'failed') {
    return (
      <div role="alert" className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '6' })}>
        <div className={css({ maxW: 'md', textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' })}>
          <h1 className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>We could not sign you in</h1>
          <p className={css({ color: 'fg.muted' })}>The sign-in service did not answer as expected{error ? `: ${error}` : ''}. Please try again.</p>
          <Button onClick={() => actor.send({ type: 'auth.retry' })}>Try again</Button>
        </div>
      </div>
    );
  }
  return <FullPageLoading label={state === 'switchingAccount' ? 'Switching account' : state === 'loggingOut' ? 'Signing out' : 'Loading'} />;
}
