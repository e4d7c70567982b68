import { createContext, useContext } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AuthMachine } from '../machines/auth/auth.machine';

export type AuthActorRef = ActorRefFrom<AuthMachine>;
export type AuthSnapshot = SnapshotFrom<AuthMachine>;

export const AuthActorContext = createContext<AuthActorRef | null>(null);

export function useAuthActor(): AuthActorRef {
  const actor = useContext(AuthActorContext);
  if (!actor) throw new Error('useAuthActor must be used inside AuthProvider');
  return actor;
}

export function useAuthSelector<T>(selector: (snapshot: AuthSnapshot) => T): T {
  return useSelector(useAuthActor(), selector);
}

/** The signed-in user; only call below RequireAuth, where a session is guaranteed. */
export function useCurrentUser() {
  const user = useAuthSelector((snapshot) => snapshot.context.user);
  if (!user) throw new Error('useCurrentUser used without a session');
  return user;
}

/** The organization the token is scoped to, null in personal mode. */
export function useTokenOrganizationId(): number | null {
  return useAuthSelector((snapshot) => {
    const value = snapshot.context.decodedToken?.organization_id;
    return typeof value === 'number' ? value : null;
  });
}
