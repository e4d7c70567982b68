/**
 * Accept an invitation (spec 000 section 2 "Invitation", section 8 Invitation errors), on /invitations?code=….
 * States:
 * - reviewing.unticked   the terms are not accepted: 'Accept invitation' disabled
 * - reviewing.ticked     the terms are accepted: 'Accept invitation' enabled
 * - accepting            POST organizations/invitations/accept?code=…
 * - failed               the form error ('Invitation expired or invalid.' and guidance, or the API's description);
 *                        the terms stay ticked and the person may try again
 * - switching            the user is now a member: the auth machine switches the console into the organization
 * - switchFailed         the membership exists but the switch failed; retry the switch only
 * - done                 final: the console opens in the organization
 * A link without a code never starts this machine: the view shows 'Invitation expired or invalid.' at once.
 */
import { assign, fromPromise, setup } from 'xstate';

export const INVITATION_INVALID = 'Invitation expired or invalid.';
export const INVITATION_GUIDANCE = 'Inviting user must re-send invitation.';
export const INVITATION_SWITCH_ERROR = 'You joined the organization, but we could not switch the console to it.';

export interface InvitationAcceptInput {
  code: string;
  organizationName: string;
}

export interface InvitationAcceptContext {
  code: string;
  organizationName: string;
  organizationId: number | null;
  error: { message: string; description: string } | null;
}

export type InvitationAcceptEvent = { type: 'terms.accept' } | { type: 'terms.decline' } | { type: 'invitation.accept' } | { type: 'retry' };

export interface AcceptedInvitation {
  organizationId: number;
  organizationName: string;
}

/** The form error for a failed accept: the spec's text for a bad code, else the API's description. */
export function invitationError(error: unknown): { message: string; description: string } {
  const record = (error && typeof error === 'object' ? error : {}) as { message?: unknown; description?: unknown; status?: unknown };
  if (record.message === INVITATION_INVALID || record.status === 400) {
    return { message: INVITATION_INVALID, description: INVITATION_GUIDANCE };
  }
  const description = typeof record.description === 'string' && record.description ? record.description : `${INVITATION_INVALID} ${INVITATION_GUIDANCE}`;
  return { message: typeof record.message === 'string' && record.message ? record.message : INVITATION_INVALID, description };
}

export const invitationAcceptMachine = setup({
  types: {
    context: {} as InvitationAcceptContext,
    events: {} as InvitationAcceptEvent,
    input: {} as InvitationAcceptInput,
  },
  actors: {
    acceptInvitation: fromPromise<AcceptedInvitation, { code: string }>(async () => {
      throw new Error('acceptInvitation is provided where the actor is created');
    }),
    switchOrganization: fromPromise<void, { organizationId: number }>(async () => {
      throw new Error('switchOrganization is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyJoined: (_, _params: { organizationName: string }) => undefined,
    openOrganization: (_, _params: { organizationId: number }) => undefined,
  },
}).createMachine({
  id: 'invitationAccept',
  context: ({ input }) => ({
    code: input.code,
    organizationName: input.organizationName,
    organizationId: null,
    error: null,
  }),
  initial: 'reviewing',
  states: {
    reviewing: {
      initial: 'unticked',
      states: {
        unticked: {
          on: { 'terms.accept': { target: 'ticked' } },
        },
        ticked: {
          on: {
            'terms.decline': { target: 'unticked' },
            'invitation.accept': { target: '#invitationAccept.accepting' },
          },
        },
      },
    },
    accepting: {
      invoke: {
        id: 'acceptInvitation',
        src: 'acceptInvitation',
        input: ({ context }) => ({ code: context.code }),
        onDone: {
          target: 'switching',
          actions: assign(({ event }) => ({
            organizationId: event.output.organizationId,
            organizationName: event.output.organizationName,
            error: null,
          })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => invitationError(event.error) }) },
      },
    },
    failed: {
      on: {
        'invitation.accept': { target: 'accepting', actions: assign({ error: null }) },
        // The terms are still ticked after a failure: the only change a person can make is to untick them.
        'terms.decline': { target: 'reviewing.unticked', actions: assign({ error: null }) },
      },
    },
    switching: {
      invoke: {
        id: 'switchOrganization',
        src: 'switchOrganization',
        input: ({ context }) => ({ organizationId: context.organizationId! }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'notifyJoined', params: ({ context }) => ({ organizationName: context.organizationName }) },
            { type: 'openOrganization', params: ({ context }) => ({ organizationId: context.organizationId! }) },
          ],
        },
        onError: { target: 'switchFailed', actions: assign({ error: { message: INVITATION_SWITCH_ERROR, description: '' } }) },
      },
    },
    switchFailed: {
      on: { retry: { target: 'switching', actions: assign({ error: null }) } },
    },
    done: { type: 'final' },
  },
});

export type InvitationAcceptMachine = typeof invitationAcceptMachine;
