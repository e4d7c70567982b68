// @vitest-environment jsdom
// Model-based test of the console's auth machine: every generated path is replayed on a real actor whose invoked
// actors (keycloak-js init, token exchange, login redirect, logout) are controlled doubles settled by the path, and
// again through RequireAuth, the view that renders the auth states around every protected route.
import { MemoryRouter, Route, Routes } from 'react-router';
import { expect } from 'vitest';
import { AuthActorContext } from '../../src/app/auth-context';
import { authMachine } from '../../src/machines/auth/auth.machine';
import type { AuthSession } from '../../src/services/auth';
import { tokenOrganizationId } from '../../src/services/token';
import { RequireAuth } from '../../src/views/auth/require-auth';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

const ACME = 7;
const now = 1_800_000_000;

function session(organizationId: number | null, hasRefreshToken: boolean): AuthSession {
  return {
    token: `access-token-${organizationId ?? 'personal'}`,
    claims: {
      sub: 'user-1',
      exp: now + 300,
      email: 'demo@example.com',
      email_verified: true,
      given_name: 'Demo',
      family_name: 'Owner',
      ...(organizationId === null ? {} : { organization_id: organizationId }),
      connection: 'Username-Password-Authentication',
      sid: 'session-1',
    },
    idClaims: { exp: now + 300 },
    hasRefreshToken,
  };
}

const acmeSession = session(ACME, true);
const personalSession = session(null, true);
const personalWithoutRefresh = session(null, false);

// The console remembered Acme (localStorage orgId) and has a client id: every guard of the machine can go both
// ways from this one input, depending on the session keycloak-js finds.
const input = { selectedOrganizationId: ACME, hasClientId: true };

// Side effects on browser storage and third-party services are React/browser concerns: silenced here.
const machine = authMachine.provide({
  actions: {
    warnSwitchFailed: () => undefined,
  },
});

const events = {
  'auth.login': [{ type: 'auth.login', returnPath: '/projects' }],
  'organization.switch': [
    { type: 'organization.switch', organizationId: ACME },
    { type: 'organization.switch', organizationId: null },
  ],
  'auth.logout': [{ type: 'auth.logout' }],
  'auth.token.refreshed': [{ type: 'auth.token.refreshed', session: acmeSession }],
  'auth.session.expired': [{ type: 'auth.session.expired' }],
  'auth.retry': [{ type: 'auth.retry' }],
  'xstate.done.actor.initialiseSession': [
    { type: 'xstate.done.actor.initialiseSession', output: null },
    { type: 'xstate.done.actor.initialiseSession', output: acmeSession },
    { type: 'xstate.done.actor.initialiseSession', output: personalSession },
    { type: 'xstate.done.actor.initialiseSession', output: personalWithoutRefresh },
  ],
  'xstate.error.actor.initialiseSession': [
    { type: 'xstate.error.actor.initialiseSession', error: new Error('Timeout when waiting for 3rd party check iframe message.') },
  ],
  'xstate.error.actor.redirectToLogin': [
    { type: 'xstate.error.actor.redirectToLogin', error: new Error('Not supported by the OIDC server') },
  ],
  'xstate.done.actor.exchangeRefreshToken': [{ type: 'xstate.done.actor.exchangeRefreshToken', output: acmeSession }],
  'xstate.error.actor.exchangeRefreshToken': [
    { type: 'xstate.error.actor.exchangeRefreshToken', error: new Error('invalid_grant') },
  ],
  'xstate.done.actor.endSession': [{ type: 'xstate.done.actor.endSession', output: undefined }],
  'xstate.error.actor.endSession': [{ type: 'xstate.error.actor.endSession', error: new Error('offline') }],
} satisfies ModelEvents<typeof machine>;

type Snapshot = Parameters<ModelStates<typeof machine>['authenticated']>[0];

function expectSignedOut(s: Snapshot) {
  expect(s.context.user).toBeNull();
  expect(s.context.token).toBeNull();
  expect(s.context.decodedToken).toBeNull();
}

const states = {
  initialising: (s) => {
    expectSignedOut(s);
    expect(s.children.initialiseSession).toBeDefined();
    expect(s.context.keyCloakError).toBeNull();
  },
  unauthenticated: (s) => {
    expectSignedOut(s);
    expect(s.context.hasRefreshToken).toBe(false);
  },
  redirectingToLogin: (s) => {
    expectSignedOut(s);
    expect(s.children.redirectToLogin).toBeDefined();
  },
  switchingAccount: (s) => {
    // Only entered when the stored account differs from the token's and a refresh token can be exchanged.
    expect(s.children.exchangeRefreshToken).toBeDefined();
    expect(s.context.hasRefreshToken).toBe(true);
    expect(s.context.selectedOrganizationId).not.toBe(tokenOrganizationId(s.context.decodedToken));
  },
  authenticated: (s) => {
    expect(s.context.token).not.toBeNull();
    expect(s.context.user?.email).toBe('demo@example.com');
    expect(s.context.user?.name).toBe('Demo Owner');
    expect(s.context.user?.organizationId).toBe(tokenOrganizationId(s.context.decodedToken));
    // The console continues only as the account the token is scoped to, or personal.
    const selected = s.context.selectedOrganizationId;
    expect(selected === null || selected === tokenOrganizationId(s.context.decodedToken)).toBe(true);
  },
  loggingOut: (s) => {
    expect(s.children.endSession).toBeDefined();
  },
  failed: (s) => {
    expectSignedOut(s);
    expect(s.context.keyCloakError).toMatch(/Timeout when waiting|Not supported by the OIDC server/);
  },
} satisfies ModelStates<typeof machine>;

// RequireAuth shows a loading element until the session is ready, the protected page once authenticated, and an
// alert with a retry button when keycloak-js failed. On 'unauthenticated' it starts the login redirect itself.
const viewEvents = {
  'auth.login': 'sent-by-view',
  'auth.retry': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
  // Sent by other parts of the console (LoginView, LogoutView, the keycloak-js session listener), not this view.
  'organization.switch': 'send-to-actor',
  'auth.logout': 'send-to-actor',
  'auth.token.refreshed': 'send-to-actor',
  'auth.session.expired': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

function expectLoading(screen: ViewScreen, label: string) {
  expect(screen.getByRole('status').textContent).toBe(label);
  expect(screen.queryByText('Protected page')).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
}

const viewStates = {
  initialising: ({ screen }) => expectLoading(screen, 'Loading'),
  // Left at once: the view sent auth.login, so the page shows the redirect's loading element.
  unauthenticated: ({ screen }) => expectLoading(screen, 'Loading'),
  redirectingToLogin: ({ screen }) => expectLoading(screen, 'Loading'),
  switchingAccount: ({ screen }) => expectLoading(screen, 'Switching account'),
  authenticated: ({ screen }) => {
    expect(screen.getByText('Protected page')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  },
  loggingOut: ({ screen }) => expectLoading(screen, 'Signing out'),
  failed: ({ screen, snapshot }) => {
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('h1')?.textContent).toBe('We could not sign you in');
    expect(alert.textContent).toContain(snapshot.context.keyCloakError ?? 'no error stored');
    expect(screen.queryByText('Protected page')).toBeNull();
  },
} satisfies ViewStates<typeof machine>;

describeModel('auth machine', {
  view: {
    render: (actor) => (
      <MemoryRouter initialEntries={['/projects']}>
        <AuthActorContext.Provider value={actor}>
          <Routes>
            <Route element={<RequireAuth />}>
              <Route path="*" element={<p>Protected page</p>} />
            </Route>
          </Routes>
        </AuthActorContext.Provider>
      </MemoryRouter>
    ),
    events: viewEvents,
    states: viewStates,
    sendsOnEntry: { unauthenticated: 'auth.login' },
  },
  name: 'auth',
  machine,
  input,
  events,
  states,
  // Only what guards and assertions depend on tells two states apart: updatedAt is a timestamp (every step would be
  // a new state) and the profile fields follow from the token's account.
  // The graph has about two dozen distinct states with many loops back to 'authenticated': its maximal simple paths
  // run into the thousands. Shortest paths plus one path per edge already replay every edge of the graph.
  simplePaths: false,
  serializeContext: (context) => ({
    signedIn: context.token !== null,
    tokenOrganizationId: tokenOrganizationId(context.decodedToken),
    selectedOrganizationId: context.selectedOrganizationId,
    hasRefreshToken: context.hasRefreshToken,
    switchRequested: context.switchRequested,
    failed: context.keyCloakError !== null,
  }),
});
