// @vitest-environment jsdom
// Model-based test of the member-removal machine (the delete-user modal): every generated path is replayed on a real
// actor with the DELETE call as a controlled double, and through the modal.
import { useSelector } from '@xstate/react';
import { expect } from 'vitest';
import { memberRemovalMachine } from '../../src/machines/member-removal/member-removal.machine';
import { DELETE_USER_WARNING, RemoveMemberDialog } from '../../src/views/organization/remove-member-dialog';
import { installDomStubs } from '../console/organization/dom-stubs';
import { memberRemovalEvents, memberRemovalViewEvents, sampleMember } from '../support/member-removal-samples';
import { describeModel, type ModelStates, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const member = sampleMember;
const toasts: string[] = [];
const machine = memberRemovalMachine.provide({
  actions: { notifyRemoved: (_, params) => void toasts.push(params.message), refreshMembers: () => undefined },
});

const events = memberRemovalEvents;

const states = {
  closed: (s) => {
    expect(s.context.member).toBeNull();
    expect(s.context.error).toBeNull();
  },
  confirming: (s) => {
    expect(s.context.member).toEqual(member);
    expect(s.context.error).toBeNull();
  },
  removing: (s) => {
    expect(s.context.member).toEqual(member);
    expect(s.can({ type: 'removal.cancel' })).toBe(false);
  },
  failed: (s) => {
    expect(s.context.member).toEqual(member);
    expect(s.context.error).toBe('We could not find this user.');
  },
} satisfies ModelStates<typeof machine>;

/** The team row's Delete button and the modal, as Organization Settings shows them. */
function Harness({ actor }: { actor: Parameters<typeof RemoveMemberDialog>[0]['actor'] }) {
  const closed = useSelector(actor, (s) => s.matches('closed'));
  return (
    <>
      <button type="button" disabled={!closed} onClick={() => actor.send({ type: 'removal.open', member })}>
        Delete user: {member.name}
      </button>
      <RemoveMemberDialog actor={actor} />
    </>
  );
}

const dialog = (screen: ViewScreen) => {
  const element = screen.getByRole('alertdialog');
  expect(element.getAttribute('data-state')).toBe('open');
  return element;
};

const viewStates = {
  // A closing dialog stays in the DOM as 'closed' until its exit animation ends, which jsdom never plays.
  closed: ({ screen }) => expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed'),
  confirming: ({ screen }) => {
    expect(dialog(screen).textContent).toContain(`Delete ${member.name}?`);
    expect(dialog(screen).textContent).toContain(DELETE_USER_WARNING);
    expect(dialog(screen).textContent).toContain(member.email);
  },
  removing: ({ screen }) => {
    expect((screen.getByRole('button', { name: 'Delete user' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  },
  failed: ({ screen }) => {
    expect(dialog(screen).textContent).toContain('We could not find this user.');
    expect((screen.getByRole('button', { name: 'Delete user' }) as HTMLButtonElement).disabled).toBe(false);
  },
} satisfies ViewStates<typeof machine>;

describeModel('member removal machine', {
  name: 'member-removal',
  machine,
  events,
  states,
  view: { render: (actor) => <Harness actor={actor} />, events: memberRemovalViewEvents, states: viewStates },
});
