import { useQueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { settings } from '../config/settings';
import { authMachine } from '../machines/auth/auth.machine';
import { clearAccountMode, persistAccountMode, readSelectedOrganizationId } from '../services/account-mode';
import { getAnalytics } from '../services/analytics';
import { endSession, exchangeRefreshToken, initialiseSession, redirectToLogin, subscribeToSession } from '../services/auth';
import { getErrorReporter } from '../services/error-reporting';
import { onUnauthorized } from '../services/session-events';
import { clearSelectedProject } from '../services/selected-project';
import { AuthActorContext } from './auth-context';

/** Creates the one auth actor, supplying the browser services and the React effects the machine names. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  const [machine] = useState(() =>
    authMachine.provide({
      actors: {
        initialiseSession: fromPromise(() => initialiseSession()),
        exchangeRefreshToken: fromPromise(({ input }: { input: { organizationId: number | null } }) => exchangeRefreshToken(input.organizationId)),
        redirectToLogin: fromPromise(({ input }: { input: { returnPath: string } }) => redirectToLogin(input.returnPath)),
        endSession: fromPromise(({ input }: { input: { returnPath: string | null } }) => endSession(input.returnPath)),
      },
      actions: {
        persistAccountMode: ({ context }) => persistAccountMode(context.selectedOrganizationId),
        clearAccountMode: () => clearAccountMode(),
        clearErrorReportingUser: () => getErrorReporter().setUser(null),
        resetAnalytics: () => getAnalytics().reset({ resetDeviceId: true }),
        clearSelectedProject: () => clearSelectedProject(),
        identifyUser: ({ context }) => {
          if (!context.user) return;
          getErrorReporter().setUser({ id: context.user.id, email: context.user.email });
          getAnalytics().identify(context.user.id, { email: context.user.email });
        },
        accountSwitched: () => {
          // Another account's cached data must never show: drop it all, then start from the overview.
          queryClient.removeQueries();
          navigateRef.current('/', { replace: true });
        },
      },
    }),
  );
  const actor = useActorRef(machine, {
    input: { selectedOrganizationId: readSelectedOrganizationId(), hasClientId: Boolean(settings.identityServer.clientId) },
  });

  useEffect(() => {
    const stopSession = subscribeToSession((event) => {
      if (event.type === 'refreshed') actor.send({ type: 'auth.token.refreshed', session: event.session });
      else actor.send({ type: 'auth.session.expired' });
    });
    // A refused read ends the sign-in; signing in again returns to the page where it happened.
    const stopUnauthorized = onUnauthorized(() =>
      actor.send({ type: 'auth.logout', returnPath: `${globalThis.location.pathname}${globalThis.location.search}` }),
    );
    return () => {
      stopSession();
      stopUnauthorized();
    };
  }, [actor]);

  return <AuthActorContext.Provider value={actor}>{children}</AuthActorContext.Provider>;
}
