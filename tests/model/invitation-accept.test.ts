// Model-based test of the invitation-accept machine: accept call and organization switch are controlled doubles.
import { expect } from 'vitest';
import {
  INVITATION_GUIDANCE,
  INVITATION_INVALID,
  INVITATION_SWITCH_ERROR,
  invitationAcceptMachine,
} from '../../src/machines/invitation-accept/invitation-accept.machine';
import { DataMutationError } from '../../src/services/errors';
import { describeModel, type ModelEvents, type ModelStates } from '../support/model-based';

const opened: number[] = [];
const machine = invitationAcceptMachine.provide({
  actions: { openOrganization: (_, params) => void opened.push(params.organizationId), notifyJoined: () => undefined },
});

const events = {
  'terms.change': [
    { type: 'terms.change', accepted: true },
    { type: 'terms.change', accepted: false },
  ],
  'invitation.accept': [{ type: 'invitation.accept' }],
  retry: [{ type: 'retry' }],
  'xstate.done.actor.acceptInvitation': [
    { type: 'xstate.done.actor.acceptInvitation', output: { organizationId: 7, organizationName: 'Acme' } },
  ],
  'xstate.error.actor.acceptInvitation': [
    {
      type: 'xstate.error.actor.acceptInvitation',
      error: new DataMutationError(INVITATION_INVALID, { status: 400, description: `${INVITATION_INVALID} ${INVITATION_GUIDANCE}` }),
    },
  ],
  'xstate.done.actor.switchOrganization': [{ type: 'xstate.done.actor.switchOrganization', output: undefined }],
  'xstate.error.actor.switchOrganization': [{ type: 'xstate.error.actor.switchOrganization', error: new Error('refused') }],
} satisfies ModelEvents<typeof machine>;

const states = {
  'reviewing.unticked': (s) => {
    expect(s.can({ type: 'invitation.accept' })).toBe(false);
    expect(s.context.error).toBeNull();
  },
  'reviewing.ticked': (s) => {
    expect(s.can({ type: 'invitation.accept' })).toBe(true);
    expect(s.context.error).toBeNull();
  },
  accepting: (s) => expect(s.context.code).toBe('code-123'),
  failed: (s) => expect(s.context.error).toEqual({ message: INVITATION_INVALID, description: INVITATION_GUIDANCE }),
  switching: (s) => expect(s.context.organizationId).toBe(7),
  switchFailed: (s) => expect(s.context.error?.message).toBe(INVITATION_SWITCH_ERROR),
  done: (s) => {
    expect(s.status).toBe('done');
    expect(opened.at(-1)).toBe(7);
  },
} satisfies ModelStates<typeof machine>;

describeModel('invitation accept machine', {
  name: 'invitation-accept',
  machine,
  input: { code: 'code-123', organizationName: 'Acme' },
  events,
  states,
});
