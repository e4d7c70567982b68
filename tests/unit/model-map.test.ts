// The browser walk's completeness check (e2e/model-map.ts): a map that leaves out a state or an event of the machine,
// or names one the machine does not have, fails; a complete map passes, including entries marked unreachable.
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { mapProblems } from '../../e2e/model-map';
import { hepicRoleConfirmMachine } from '../../src/machines/hepic-role-confirm/hepic-role-confirm.machine';

const check = () => undefined;
const complete = {
  machine: hepicRoleConfirmMachine,
  states: { idle: check, requesting: check, confirming: check, saving: check, cancelling: { unreachable: 'a reason' } },
  events: Object.fromEntries(
    [
      'role.select',
      'role.confirm',
      'role.cancel',
      'role.sync',
      'xstate.done.actor.requestConfirm',
      'xstate.error.actor.requestConfirm',
      'xstate.done.actor.saveRole',
      'xstate.error.actor.saveRole',
      'xstate.done.actor.restoreRole',
      'xstate.error.actor.restoreRole',
    ].map((type) => [type, { perform: check }]),
  ),
};

const without = (record: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

describe('browser map completeness check', () => {
  it('passes a map with an entry for every leaf state and every handled event', () => {
    expect(mapProblems(complete)).toEqual([]);
  });

  it('fails a map missing a state', () => {
    expect(mapProblems({ ...complete, states: without(complete.states, 'confirming') })).toEqual(["state 'confirming' has no entry in the browser map"]);
  });

  it('fails a map missing an event, including an invoked actor outcome', () => {
    expect(mapProblems({ ...complete, events: without(complete.events, 'role.cancel') })).toEqual(["event 'role.cancel' has no entry in the browser map"]);
    expect(mapProblems({ ...complete, events: without(complete.events, 'xstate.error.actor.saveRole') })).toEqual([
      "event 'xstate.error.actor.saveRole' has no entry in the browser map",
    ]);
  });

  it('fails a map naming a state or an event the machine does not have', () => {
    expect(mapProblems({ ...complete, states: { ...complete.states, archived: check } })).toEqual([
      "the browser map names state 'archived', which the machine does not have",
    ]);
    expect(mapProblems({ ...complete, events: { ...complete.events, 'role.delete': { perform: check } } })).toEqual([
      "the browser map names event 'role.delete', which the machine does not handle",
    ]);
  });

  it('fails when the machine gains a state and an event the map does not know', () => {
    const config = hepicRoleConfirmMachine.config;
    const grown = createMachine({ ...config, states: { ...config.states, archived: { on: { 'role.restore': 'idle' } } } } as typeof config);
    expect(mapProblems({ ...complete, machine: grown })).toEqual([
      "state 'archived' has no entry in the browser map",
      "event 'role.restore' has no entry in the browser map",
    ]);
  });
});
