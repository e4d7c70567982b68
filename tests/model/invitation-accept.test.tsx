// @vitest-environment jsdom
// Model-based test of the invitation-accept machine: accept call and organization switch are controlled doubles;
// every path is replayed on the machine and through the invitation page's form.
import { expect } from 'vitest';
import {
  INVITATION_GUIDANCE,
  INVITATION_INVALID,
  INVITATION_SWITCH_ERROR,
  invitationAcceptMachine,
} from '../../src/machines/invitation-accept/invitation-accept.machine';
import { DataMutationError } from '../../src/services/errors';
import { InvitationForm } from '../../src/views/invitations/invitation-view';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewStates } from '../support/model-based';

installDomStubs();

const opened: number[] = [];
const machine = invitationAcceptMachine.provide({
  actions: { openOrganization: (_, params) => void opened.push(params.organizationId), notifyJoined: () => undefined },
});

const events = {
  'terms.accept': [{ type: 'terms.accept' }],
  'terms.decline': [{ type: 'terms.decline' }],
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

type Screen = Parameters<ViewStates<typeof machine>['accepting']>[0]['screen'];
const acceptButton = (screen: Screen) => screen.getByRole('button', { name: 'Accept invitation' }) as HTMLButtonElement;
const termsBox = (screen: Screen) => screen.getByRole('checkbox') as HTMLInputElement;

const viewEvents = {
  'terms.accept': async ({ screen, user }) => {
    expect(termsBox(screen).checked).toBe(false);
    await user.click(termsBox(screen));
  },
  'terms.decline': async ({ screen, user }) => {
    expect(termsBox(screen).checked).toBe(true);
    await user.click(termsBox(screen));
  },
  'invitation.accept': ({ screen, user }) => user.click(acceptButton(screen)),
  retry: ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
} satisfies ViewEvents<typeof machine>;

const TITLE = 'You have received an invitation to organization Acme';

const viewStates = {
  'reviewing.unticked': ({ screen }) => {
    expect(screen.getByText(TITLE)).toBeTruthy();
    expect(termsBox(screen).checked).toBe(false);
    expect(acceptButton(screen).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('target')).toBe('_blank');
  },
  'reviewing.ticked': ({ screen }) => {
    expect(termsBox(screen).checked).toBe(true);
    expect(acceptButton(screen).disabled).toBe(false);
    expect(screen.queryByText(INVITATION_INVALID)).toBeNull();
  },
  accepting: ({ screen }) => expect(acceptButton(screen).disabled).toBe(true),
  failed: ({ screen }) => {
    expect(screen.getByText(INVITATION_INVALID)).toBeTruthy();
    expect(screen.getByText(INVITATION_GUIDANCE)).toBeTruthy();
    expect(termsBox(screen).checked).toBe(true);
    expect(acceptButton(screen).disabled).toBe(false);
  },
  switching: ({ screen }) => expect(screen.getByRole('status').textContent).toBe('Opening Acme…'),
  switchFailed: ({ screen }) => {
    expect(screen.getByText(INVITATION_SWITCH_ERROR)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  done: ({ screen }) => expect(acceptButton(screen).disabled).toBe(true),
} satisfies ViewStates<typeof machine>;

describeModel('invitation accept machine', {
  name: 'invitation-accept',
  machine,
  input: { code: 'code-123', organizationName: 'Acme' },
  events,
  states,
  view: { render: (actor) => <InvitationForm actor={actor} />, events: viewEvents, states: viewStates },
});
