/**
 * Auth machine: the console's session with the identity server (spec 000 section 4 Auth; routes /auth, /login,
 * /logout). States:
 * - initialising: keycloak-js check-sso and the on-load token refresh run (isLoading, not authenticated).
 * - unauthenticated: no session; `auth.login` leaves for the identity server's login page.
 * - redirectingToLogin: the login redirect is under way (the page is about to unload).
 * - switchingAccount: the refresh token is exchanged for tokens scoped to the selected organization or personal account.
 * - authenticated: ready — a token is held and the stored organization is empty or the token's organization_id.
 * - loggingOut: error-reporting user, analytics identity and selected project cleared, then identity-server logout.
 * - failed: keycloak-js could not initialise (keyCloakError kept); `auth.retry` starts again.
 *
 * Events (sent by views and by the auth service's session listener):
 * - auth.login {returnPath}            /login or a protected route without a session
 * - organization.switch {organizationId: number | null}   /login?organization={id} (null: ?personalAccount)
 * - auth.logout {returnPath?}         /logout, the LOGOUT link, or a 401/403 from the API (with the page to return
 *                                     to after signing in again)
 * - auth.token.refreshed {session}    keycloak-js refreshed the token (before a request)
 * - auth.session.expired              keycloak-js lost the session (refresh refused)
 * - auth.retry                        try initialising again after a failure
 *
 * React-only effects are named here and supplied with .provide() where the actor is created:
 * `accountSwitched` (navigate home, drop cached queries).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AuthSession } from '../../services/auth';
import { isSessionReady, tokenOrganizationId, toUserProfile, type TokenClaims, type UserProfile } from '../../services/token';

export interface AuthContext {
  user: UserProfile | null;
  decodedToken: TokenClaims | null;
  token: string | null;
  hasRefreshToken: boolean;
  /** The account the console should act as: localStorage orgId, null for personal. */
  selectedOrganizationId: number | null;
  /** True while a switch the user asked for (organization.switch) runs; false when restoring on load. */
  switchRequested: boolean;
  keyCloakError: string | null;
  updatedAt: number;
}

export interface AuthInput {
  selectedOrganizationId: number | null;
  /** Whether a client id is configured; with a refresh token it allows the organization exchange. */
  hasClientId: boolean;
}

export type AuthEvent =
  | { type: 'auth.login'; returnPath: string }
  | { type: 'organization.switch'; organizationId: number | null }
  | { type: 'auth.logout'; returnPath?: string }
  | { type: 'auth.token.refreshed'; session: AuthSession }
  | { type: 'auth.session.expired' }
  | { type: 'auth.retry' };

const emptySession = {
  user: null,
  decodedToken: null,
  token: null,
  hasRefreshToken: false,
} satisfies Partial<AuthContext>;

function sessionContext(session: AuthSession): Pick<AuthContext, 'user' | 'decodedToken' | 'token' | 'hasRefreshToken' | 'updatedAt'> {
  return {
    user: toUserProfile(session.claims, session.idClaims),
    decodedToken: session.claims,
    token: session.token,
    hasRefreshToken: session.hasRefreshToken,
    updatedAt: Date.now(),
  };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'error' in error) return String((error as { error: unknown }).error);
  return String(error ?? 'Unknown error');
}

export const authMachine = setup({
  types: {
    context: {} as AuthContext & { hasClientId: boolean },
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    initialiseSession: fromPromise<AuthSession | null>(async () => {
      throw new Error('initialiseSession is provided where the actor is created');
    }),
    exchangeRefreshToken: fromPromise<AuthSession, { organizationId: number | null }>(async () => {
      throw new Error('exchangeRefreshToken is provided where the actor is created');
    }),
    redirectToLogin: fromPromise<void, { returnPath: string }>(async () => {
      throw new Error('redirectToLogin is provided where the actor is created');
    }),
    endSession: fromPromise<void, { returnPath: string | null }>(async () => {
      throw new Error('endSession is provided where the actor is created');
    }),
  },
  guards: {
    hasNoSession: (_, params: { session: AuthSession | null }) => params.session === null,
    isSessionReady: ({ context }, params: { session: AuthSession | null }) =>
      isSessionReady({
        isAuthenticated: params.session !== null,
        token: params.session?.token,
        claims: params.session?.claims,
        selectedOrganizationId: context.selectedOrganizationId,
      }),
    switchWasRequested: ({ context }) => context.switchRequested,
    canExchangeRefreshToken: ({ context }) => context.hasRefreshToken && context.hasClientId,
    sessionCanExchange: ({ context }, params: { session: AuthSession | null }) =>
      Boolean(params.session?.hasRefreshToken) && context.hasClientId,
    isCurrentAccount: ({ context }, params: { organizationId: number | null }) =>
      tokenOrganizationId(context.decodedToken) === params.organizationId,
  },
  actions: {
    storeSession: assign((_, params: { session: AuthSession }) => sessionContext(params.session)),
    clearSession: assign(() => ({ ...emptySession, updatedAt: Date.now() })),
    selectOrganization: assign((_, params: { organizationId: number | null }) => ({ selectedOrganizationId: params.organizationId, switchRequested: true })),
    /** Stays with the account the token is scoped to when a switch cannot happen, so the console can continue. */
    adoptTokenAccount: assign(({ context }) => ({ selectedOrganizationId: tokenOrganizationId(context.decodedToken) })),
    storeError: assign((_, params: { error: unknown }) => ({ keyCloakError: errorMessage(params.error), updatedAt: Date.now() })),
    clearError: assign({ keyCloakError: null }),
    clearSwitchRequest: assign({ switchRequested: false }),
    warnSwitchFailed: (_, params: { error: unknown }) => {
      console.warn('Could not switch the account; staying with the current one.', params.error);
    },
    // Side effects on browser storage and third-party services are named so tests can observe or replace them.
    persistAccountMode: () => undefined,
    clearAccountMode: () => undefined,
    clearErrorReportingUser: () => undefined,
    resetAnalytics: () => undefined,
    clearSelectedProject: () => undefined,
    identifyUser: () => undefined,
    accountSwitched: () => undefined,
  },
}).createMachine({
  id: 'auth',
  initial: 'initialising',
  context: ({ input }) => ({
    ...emptySession,
    selectedOrganizationId: input.selectedOrganizationId,
    hasClientId: input.hasClientId,
    switchRequested: false,
    keyCloakError: null,
    updatedAt: Date.now(),
  }),
  states: {
    initialising: {
      invoke: {
        id: 'initialiseSession',
        src: 'initialiseSession',
        onDone: [
          {
            guard: { type: 'hasNoSession', params: ({ event }) => ({ session: event.output }) },
            target: 'unauthenticated',
            actions: 'clearSession',
          },
          {
            guard: { type: 'isSessionReady', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticated',
            actions: [{ type: 'storeSession', params: ({ event }) => ({ session: event.output! }) }, 'identifyUser'],
          },
          {
            // The stored organization differs from the token's: exchange the refresh token before continuing.
            guard: { type: 'sessionCanExchange', params: ({ event }) => ({ session: event.output }) },
            target: 'switchingAccount',
            actions: [{ type: 'storeSession', params: ({ event }) => ({ session: event.output! }) }, 'identifyUser'],
          },
          {
            // Nothing to exchange with: stay with the account the token is scoped to.
            target: 'authenticated',
            actions: [
              { type: 'storeSession', params: ({ event }) => ({ session: event.output! }) },
              'identifyUser',
              { type: 'warnSwitchFailed', params: { error: 'no refresh token' } },
              'adoptTokenAccount',
              'persistAccountMode',
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    unauthenticated: {
      on: {
        'auth.login': { target: 'redirectingToLogin' },
      },
    },
    redirectingToLogin: {
      invoke: {
        id: 'redirectToLogin',
        src: 'redirectToLogin',
        input: ({ event }) => ({ returnPath: event.type === 'auth.login' ? event.returnPath : '/' }),
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    switchingAccount: {
      invoke: {
        id: 'exchangeRefreshToken',
        src: 'exchangeRefreshToken',
        input: ({ context }) => ({ organizationId: context.selectedOrganizationId }),
        onDone: [
          {
            // A switch the user asked for starts over in the new account: no project, the overview.
            guard: 'switchWasRequested',
            target: 'authenticated',
            actions: [
              { type: 'storeSession', params: ({ event }) => ({ session: event.output }) },
              'adoptTokenAccount',
              'persistAccountMode',
              'clearSelectedProject',
              'accountSwitched',
            ],
          },
          {
            // Restoring the stored account on load keeps the page and project the user reloaded.
            target: 'authenticated',
            actions: [{ type: 'storeSession', params: ({ event }) => ({ session: event.output }) }, 'adoptTokenAccount', 'persistAccountMode'],
          },
        ],
        onError: {
          target: 'authenticated',
          actions: [
            { type: 'warnSwitchFailed', params: ({ event }) => ({ error: event.error }) },
            'adoptTokenAccount',
            'persistAccountMode',
          ],
        },
      },
    },
    authenticated: {
      entry: 'clearSwitchRequest',
      on: {
        'organization.switch': [
          {
            guard: { type: 'isCurrentAccount', params: ({ event }) => ({ organizationId: event.organizationId }) },
            actions: [{ type: 'selectOrganization', params: ({ event }) => ({ organizationId: event.organizationId }) }, 'persistAccountMode', 'accountSwitched'],
          },
          {
            guard: 'canExchangeRefreshToken',
            target: 'switchingAccount',
            actions: [{ type: 'selectOrganization', params: ({ event }) => ({ organizationId: event.organizationId }) }, 'persistAccountMode'],
          },
          {
            actions: { type: 'warnSwitchFailed', params: { error: 'no refresh token' } },
          },
        ],
        'auth.token.refreshed': {
          actions: { type: 'storeSession', params: ({ event }) => ({ session: event.session }) },
        },
        'auth.session.expired': { target: 'unauthenticated', actions: 'clearSession' },
        'auth.logout': { target: 'loggingOut' },
      },
    },
    loggingOut: {
      entry: ['clearErrorReportingUser', 'resetAnalytics', 'clearSelectedProject', 'clearAccountMode'],
      invoke: {
        id: 'endSession',
        src: 'endSession',
        input: ({ event }) => ({ returnPath: event.type === 'auth.logout' ? (event.returnPath ?? null) : null }),
        onDone: { target: 'unauthenticated', actions: 'clearSession' },
        onError: { target: 'unauthenticated', actions: 'clearSession' },
      },
    },
    failed: {
      on: {
        'auth.retry': { target: 'initialising', actions: 'clearError' },
      },
    },
  },
});

export type AuthMachine = typeof authMachine;
