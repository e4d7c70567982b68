// @vitest-environment jsdom
// Model-based test of a machine that owns a dialog through the address (issue 17): the member-removal machine with
// the console's one query-parameter mechanism (useUrlDialog). Every generated path is replayed on a real actor
// and through a view where the Delete button only writes ?action=delete-org-user-{id}; the address opens the
// machine, and each state is checked against the address (present while the dialog is open, gone once closed).
import { useSelector } from '@xstate/react';
import { MemoryRouter, useLocation } from 'react-router';
import { expect } from 'vitest';
import { readAction } from '../../src/lib/url-state';
import { memberRemovalMachine } from '../../src/machines/member-removal/member-removal.machine';
import { DELETE_MEMBER_ACTION } from '../../src/views/organization/organization-settings-view';
import { RemoveMemberDialog } from '../../src/views/organization/remove-member-dialog';
import { subjectInAction } from '../../src/lib/url-state';
import { useUrlDialog } from '../../src/views/url-state/use-url-state';
import { installDomStubs } from '../console/organization/dom-stubs';
import { memberRemovalEvents, memberRemovalViewEvents, sampleMember } from '../support/member-removal-samples';
import { describeModel, type ModelStates, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const member = sampleMember;
const machine = memberRemovalMachine.provide({ actions: { notifyRemoved: () => undefined, refreshMembers: () => undefined } });

const events = memberRemovalEvents;

const states = {
  closed: (s) => expect(s.context.member).toBeNull(),
  confirming: (s) => expect(s.context.member).toEqual(member),
  removing: (s) => expect(s.context.member).toEqual(member),
  failed: (s) => expect(s.context.error).toBe('We could not find this user.'),
} satisfies ModelStates<typeof machine>;

/** The address as the page sees it, written into the DOM so the view checks can read it. */
function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.search}</output>;
}

function Page({ actor }: { actor: Parameters<typeof RemoveMemberDialog>[0]['actor'] }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const request = useUrlDialog({
    address: subjectInAction(DELETE_MEMBER_ACTION),
    ready: true,
    dialogOpen: open,
    open: (id) => {
      if (id !== member.id) return false;
      actor.send({ type: 'removal.open', member });
      return true;
    },
  });
  return (
    <>
      <button type="button" disabled={open} onClick={() => request(member.id)}>
        Delete user: {member.name}
      </button>
      <RemoveMemberDialog actor={actor} />
      <Address />
    </>
  );
}

const requestedId = (screen: ViewScreen) => readAction(new URLSearchParams(screen.getByRole('status', { name: 'address', hidden: true }).textContent ?? ''), DELETE_MEMBER_ACTION);
const dialogText = (screen: ViewScreen) => screen.getByRole('alertdialog').textContent ?? '';

const viewStates = {
  closed: ({ screen }) => {
    expect(screen.queryByRole('alertdialog')?.getAttribute('data-state') ?? 'closed').toBe('closed');
    expect(requestedId(screen)).toBeNull();
  },
  confirming: ({ screen }) => {
    expect(dialogText(screen)).toContain(`Delete ${member.name}?`);
    expect(requestedId(screen)).toBe(member.id);
  },
  removing: ({ screen }) => {
    expect((screen.getByRole('button', { name: 'Delete user' }) as HTMLButtonElement).disabled).toBe(true);
    expect(requestedId(screen)).toBe(member.id);
  },
  failed: ({ screen }) => {
    expect(dialogText(screen)).toContain('We could not find this user.');
    expect(requestedId(screen)).toBe(member.id);
  },
} satisfies ViewStates<typeof machine>;

describeModel('member removal through the address', {
  name: 'member-removal-url',
  machine,
  events,
  states,
  view: {
    render: (actor) => (
      <MemoryRouter initialEntries={['/organization']}>
        <Page actor={actor} />
      </MemoryRouter>
    ),
    events: memberRemovalViewEvents,
    states: viewStates,
  },
});
