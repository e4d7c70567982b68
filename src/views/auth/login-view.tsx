import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAuthActor, useAuthSelector } from '../../app/auth-context';
import { savedReturnPath } from '../../services/auth';
import { FullPageLoading } from '../shell/full-page-loading';
import { loginIntent } from './login-intent';

/** /login has no UI: it signs in (keeping its query through the return path) or switches the account. */
export function LoginView() {
  const actor = useAuthActor();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = useAuthSelector((snapshot) => snapshot.value);
  const sent = useRef(false);

  useEffect(() => {
    if (state === 'unauthenticated') {
      // A bare /login after a logout the API caused continues to the page where the read was refused.
      const returnPath = loginIntent(params).type === 'home' ? savedReturnPath() : null;
      actor.send({ type: 'auth.login', returnPath: returnPath ?? `${location.pathname}${location.search}` });
      return;
    }
    if (state !== 'authenticated') return;
    if (sent.current) {
      // The switch finished (or failed and stayed): continue from the overview.
      navigate('/', { replace: true });
      return;
    }
    const intent = loginIntent(params);
    if (intent.type === 'switch') {
      sent.current = true;
      actor.send({ type: 'organization.switch', organizationId: intent.organizationId });
      // Handled at once (the token's own account, or no refresh token to exchange): the state stays 'authenticated',
      // so this effect does not run again to continue.
      if (actor.getSnapshot().matches('authenticated')) navigate('/', { replace: true });
    } else {
      navigate(intent.type === 'invitation' ? intent.path : '/', { replace: true });
    }
  }, [state, actor, params, navigate, location.pathname, location.search]);

  return <FullPageLoading label={state === 'switchingAccount' ? 'Switching account' : 'Signing in'} />;
}
