// Signs the console in as an organization through the auth machine's organization switch, and resolves once the
// token is scoped to it. Used after creating an organization and after accepting an invitation.
import { waitFor } from 'xstate';
import type { AuthActorRef } from '../../app/auth-context';
import { tokenOrganizationId } from '../../services/token';

const SWITCH_TIMEOUT_MS = 20_000;

export async function switchToOrganization(auth: AuthActorRef, organizationId: number): Promise<void> {
  // The send is handled at once: the auth actor is then either exchanging the refresh token or already done
  // (the same account, or no refresh token to exchange). Waiting for 'authenticated' covers both.
  auth.send({ type: 'organization.switch', organizationId });
  const snapshot = await waitFor(auth, (s) => s.matches('authenticated'), { timeout: SWITCH_TIMEOUT_MS });
  if (tokenOrganizationId(snapshot.context.decodedToken) !== organizationId) {
    throw new Error('The identity server did not switch the session to the organization.');
  }
}
