// The member-removal machine's sample member, its events and what a person does for each, shared by its model tests (the modal alone, and the modal
// owned through the address).
import type { memberRemovalMachine } from '../../src/machines/member-removal/member-removal.machine';
import type { ModelEvents, ViewEvents } from './model-based';

export const sampleMember = { id: '00000000-0000-4000-8000-000000000002', name: 'Dev Member', email: 'dev@example.com' };

export const memberRemovalEvents = {
  'removal.open': [{ type: 'removal.open', member: sampleMember }],
  'removal.confirm': [{ type: 'removal.confirm' }],
  'removal.cancel': [{ type: 'removal.cancel' }],
  'xstate.done.actor.removeMember': [{ type: 'xstate.done.actor.removeMember', output: { message: 'The user has been removed.' } }],
  'xstate.error.actor.removeMember': [
    { type: 'xstate.error.actor.removeMember', error: Object.assign(new Error('Not found'), { description: 'We could not find this user.' }) },
  ],
} satisfies ModelEvents<typeof memberRemovalMachine>;

/** What a person does in the remove-member modal for each event a person can cause. */
export const memberRemovalViewEvents = {
  'removal.open': ({ screen, user }) => user.click(screen.getByRole('button', { name: `Delete user: ${sampleMember.name}` })),
  'removal.confirm': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Delete user' })),
  'removal.cancel': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Cancel' })),
} satisfies ViewEvents<typeof memberRemovalMachine>;
