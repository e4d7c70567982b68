// Sample events of the auth machine: what its model test (tests/model/auth-machine.test.tsx) replays, and what the
// browser walk (e2e/paths-auth.spec.ts) and the statechart studio play. The console remembered Acme (localStorage
// orgId) and has a client id: every guard of the machine can go both ways from this one input, depending on the
// session keycloak-js finds. The error texts are the ones the browser gives for each failure.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { AuthSession } from '../../services/auth';
import { tokenOrganizationId } from '../../services/token';
import type { AuthContext, AuthInput, AuthMachine } from './auth.machine';

/** The organization the samples' console remembered; the browser walk stands the real Acme's id in for it. */
export const SAMPLE_ACME_ID = 7;
/** keycloak-js's error when the identity server answers its token request with an error status. */
export const SAMPLE_SIGN_IN_FAILURE = 'Server responded with an invalid status.';
/** keycloak-js's only error on the way to the login page: no Web Crypto for the state and PKCE values. */
export const SAMPLE_LOGIN_REDIRECT_FAILURE = 'Web Crypto API is not available.';
/** The identity server refusing an organization the user does not (or no longer) belong to. */
export const SAMPLE_EXCHANGE_FAILURE = 'Token exchange failed with status 400';

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

export const SAMPLE_ACME_SESSION = session(SAMPLE_ACME_ID, true);
export const SAMPLE_PERSONAL_SESSION = session(null, true);
export const SAMPLE_PERSONAL_WITHOUT_REFRESH = session(null, false);

export const authInput: AuthInput = { selectedOrganizationId: SAMPLE_ACME_ID, hasClientId: true };
/**
 * The personal account remembered (orgId empty). The model test needs no second input (a sample session scoped to
 * Acme is ready at once with Acme remembered), but a browser's first tokens are never scoped to an organization:
 * there a session found on load is ready at once only with the personal account remembered.
 */
export const authPersonalInput: AuthInput = { selectedOrganizationId: null, hasClientId: true };

export const authEvents = {
  'auth.login': [{ type: 'auth.login', returnPath: '/projects' }],
  'organization.switch': [
    { type: 'organization.switch', organizationId: SAMPLE_ACME_ID },
    { type: 'organization.switch', organizationId: null },
  ],
  'auth.logout': [{ type: 'auth.logout' }],
  'auth.token.refreshed': [{ type: 'auth.token.refreshed', session: SAMPLE_ACME_SESSION }],
  'auth.session.expired': [{ type: 'auth.session.expired' }],
  'auth.retry': [{ type: 'auth.retry' }],
  'xstate.done.actor.initialiseSession': [
    { type: 'xstate.done.actor.initialiseSession', output: null },
    { type: 'xstate.done.actor.initialiseSession', output: SAMPLE_ACME_SESSION },
    { type: 'xstate.done.actor.initialiseSession', output: SAMPLE_PERSONAL_SESSION },
    { type: 'xstate.done.actor.initialiseSession', output: SAMPLE_PERSONAL_WITHOUT_REFRESH },
  ],
  'xstate.error.actor.initialiseSession': [{ type: 'xstate.error.actor.initialiseSession', error: new Error(SAMPLE_SIGN_IN_FAILURE) }],
  'xstate.error.actor.redirectToLogin': [{ type: 'xstate.error.actor.redirectToLogin', error: new Error(SAMPLE_LOGIN_REDIRECT_FAILURE) }],
  'xstate.done.actor.exchangeRefreshToken': [{ type: 'xstate.done.actor.exchangeRefreshToken', output: SAMPLE_ACME_SESSION }],
  'xstate.error.actor.exchangeRefreshToken': [{ type: 'xstate.error.actor.exchangeRefreshToken', error: new Error(SAMPLE_EXCHANGE_FAILURE) }],
  'xstate.done.actor.endSession': [{ type: 'xstate.done.actor.endSession', output: undefined }],
  'xstate.error.actor.endSession': [{ type: 'xstate.error.actor.endSession', error: new Error('offline') }],
} satisfies ModelEvents<AuthMachine>;

export const authSamples: ModelSamples = {
  events: authEvents,
  input: authInput,
  // Only what guards and assertions depend on tells two states apart: updatedAt is a timestamp (every step would be
  // a new state) and the profile fields follow from the token's account.
  serializeContext: (context: AuthContext) => ({
    signedIn: context.token !== null,
    tokenOrganizationId: tokenOrganizationId(context.decodedToken),
    selectedOrganizationId: context.selectedOrganizationId,
    hasRefreshToken: context.hasRefreshToken,
    switchRequested: context.switchRequested,
    failed: context.keyCloakError !== null,
  }),
  // The graph has about two dozen distinct states with many loops back to 'authenticated': its maximal simple paths
  // run into the thousands. Shortest paths plus one path per edge already replay every edge of the graph.
  simplePaths: false,
};
