// @vitest-environment jsdom
// Model-based test of the console's auth machine: every generated path is replayed on a real actor whose invoked
// actors (keycloak-js init, token exchange, login redirect, logout) are controlled doubles settled by the path, and
// again through RequireAuth, the view that renders the auth states around every protected route.
import { MemoryRouter, Route, Routes } from 'react-router';
import { expect } from 'vitest';
import { AuthActorContext } from '../../src/app/auth-context';
import { authMachine } from '../../src/machines/auth/auth.machine';
import { SAMPLE_LOGIN_REDIRECT_FAILURE, SAMPLE_SIGN_IN_FAILURE, authEvents, authSamples } from '../../src/machines/auth/auth.samples';
import { tokenOrganizationId } from '../../src/services/token';
import { RequireAuth } from '../../src/views/auth/require-auth';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

// Side effects on browser storage and third-party services are React/browser concerns: silenced here.
const machine = authMachine.provide({
  actions: {
    warnSwitchFailed: () => undefined,
  },
});

// The same samples the browser walk and the statechart studio play.
const events = authEvents satisfies ModelEvents<typeof machine>;

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
    expect([SAMPLE_SIGN_IN_FAILURE, SAMPLE_LOGIN_REDIRECT_FAILURE]).toContain(s.context.keyCloakError);
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
  input: authSamples.input,
  events,
  states,
  serializeContext: authSamples.serializeContext as (context: unknown) => unknown,
  simplePaths: authSamples.simplePaths,
});
