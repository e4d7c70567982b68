// Sample events of the Hepic role confirm: what its model test (tests/model/hepic-role-confirm.test.tsx) replays,
// and what the browser walk (e2e/paths-hepic-role-confirm.spec.ts) and the statechart studio play.
import { ROLE_UPDATED_MESSAGE, roleConfirmText } from '../../../contract/hepic';
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { HepicRoleConfirmMachine, HepicRoleInput } from './hepic-role-confirm.machine';

export const SAMPLE_USER_NAME = 'Dana Developer';
export const SAMPLE_REQUEST_REFUSED = 'Only hepic admins can add, remove or change the role of users.';

export const hepicRoleConfirmInput: HepicRoleInput = { userId: '00000000-0000-4000-8000-000000000002', name: SAMPLE_USER_NAME, group: 'user' };

export const hepicRoleConfirmEvents = {
  'role.select': [
    { type: 'role.select', group: 'admin' },
    { type: 'role.select', group: 'user' },
  ],
  'role.confirm': [{ type: 'role.confirm' }],
  'role.cancel': [{ type: 'role.cancel' }],
  'role.sync': [{ type: 'role.sync', group: 'user' }],
  'xstate.done.actor.requestConfirm': [{ type: 'xstate.done.actor.requestConfirm', output: { message: roleConfirmText(SAMPLE_USER_NAME, 'admin') } }],
  'xstate.error.actor.requestConfirm': [
    { type: 'xstate.error.actor.requestConfirm', error: Object.assign(new Error('Forbidden'), { description: SAMPLE_REQUEST_REFUSED }) },
  ],
  'xstate.done.actor.saveRole': [{ type: 'xstate.done.actor.saveRole', output: { message: ROLE_UPDATED_MESSAGE } }],
  'xstate.error.actor.saveRole': [{ type: 'xstate.error.actor.saveRole', error: new Error('Network down') }],
  'xstate.done.actor.restoreRole': [{ type: 'xstate.done.actor.restoreRole', output: { message: roleConfirmText(SAMPLE_USER_NAME, 'user') } }],
  'xstate.error.actor.restoreRole': [{ type: 'xstate.error.actor.restoreRole', error: new Error('Network down') }],
} satisfies ModelEvents<HepicRoleConfirmMachine>;

export const hepicRoleConfirmSamples: ModelSamples = {
  events: hepicRoleConfirmEvents,
  input: hepicRoleConfirmInput,
  serializeContext: (context: { group: string; requested: string | null }) => ({ group: context.group, requested: context.requested }),
};
