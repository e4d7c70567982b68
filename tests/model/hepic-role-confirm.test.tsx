// @vitest-environment jsdom
// Model-based test of the Hepic role confirm: every generated path is replayed on a real actor whose three calls
// (ask for the prompt, save, re-submit the previous group) are controlled doubles, and through the row's select and
// the 'Update user role' modal; toasts and the list refetch are recorded.
import { describe, expect, it } from 'vitest';
import { within } from '@testing-library/react';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ROLE_UPDATED_MESSAGE, roleConfirmText } from '../../contract/hepic';
import { hepicRoleConfirmMachine } from '../../src/machines/hepic-role-confirm/hepic-role-confirm.machine';
import { SAMPLE_USER_NAME, hepicRoleConfirmEvents, hepicRoleConfirmInput } from '../../src/machines/hepic-role-confirm/hepic-role-confirm.samples';
import { HepicRoleControl } from '../../src/views/stack/hepic/hepic-role-select';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

const NAME = SAMPLE_USER_NAME;
const effects: string[] = [];
const machine = hepicRoleConfirmMachine.provide({
  actions: {
    notifyUpdated: (_, params) => void effects.push(`ok:${params.message}`),
    notifyFailed: (_, params) => void effects.push(`failed:${params.message}`),
    refreshUsers: () => void effects.push('refresh'),
  },
});

// The same samples the browser walk and the statechart studio play.
const events = hepicRoleConfirmEvents satisfies ModelEvents<typeof machine>;

const states = {
  idle: (s) => {
    expect(s.context.requested).toBeNull();
    expect(s.context.prompt).toBeNull();
  },
  requesting: (s) => {
    expect(s.context.requested).not.toBe(s.context.group);
    expect(s.can({ type: 'role.confirm' })).toBe(false);
  },
  confirming: (s) => {
    // The prompt is the server's answer for the chosen group.
    expect(s.context.prompt).toMatch(/^You will change the role of Dana Developer to (admin|user)\.$/);
    expect(s.context.requested).not.toBe(s.context.group);
  },
  saving: (s) => expect(s.context.requested).not.toBeNull(),
  cancelling: (s) => expect(s.context.requested).not.toBeNull(),
} satisfies ModelStates<typeof machine>;

describe('hepic role confirm outcomes', () => {
  const run = (overrides: Parameters<typeof hepicRoleConfirmMachine.provide>[0]['actors'], log: string[]) =>
    createActor(
      hepicRoleConfirmMachine.provide({
        actors: overrides,
        actions: { notifyUpdated: (_, p) => void log.push(`ok:${p.message}`), notifyFailed: (_, p) => void log.push(`failed:${p.message}`), refreshUsers: () => void log.push('refresh') },
      }),
      { input: { userId: 'u1', name: NAME, group: 'user' } },
    ).start();

  it('confirm saves the chosen group and says so', async () => {
    const calls: string[] = [];
    const log: string[] = [];
    const actor = run(
      {
        requestConfirm: fromPromise(async ({ input }) => (calls.push(`ask:${input.group}`), { message: roleConfirmText(NAME, input.group) })),
        saveRole: fromPromise(async ({ input }) => (calls.push(`save:${input.group}`), { message: ROLE_UPDATED_MESSAGE })),
      },
      log,
    );
    actor.send({ type: 'role.select', group: 'admin' });
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'role.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.group).toBe('admin');
    expect(calls).toEqual(['ask:admin', 'save:admin']);
    expect(log).toEqual([`ok:${ROLE_UPDATED_MESSAGE}`, 'refresh']);
  });

  it('cancel re-submits the previous group and keeps it', async () => {
    const calls: string[] = [];
    const actor = run(
      {
        requestConfirm: fromPromise(async ({ input }) => (calls.push(`ask:${input.group}`), { message: 'prompt' })),
        restoreRole: fromPromise(async ({ input }) => (calls.push(`restore:${input.group}`), { message: 'prompt' })),
      },
      [],
    );
    actor.send({ type: 'role.select', group: 'admin' });
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'role.cancel' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.group).toBe('user');
    expect(calls).toEqual(['ask:admin', 'restore:user']);
  });
});

const select = (screen: ViewScreen) => screen.getByRole('combobox', { name: `Role of ${NAME}`, hidden: true }) as HTMLSelectElement;
// A closing dialog stays in the DOM for its exit animation (data-state="closed"): only an open one counts.
const modal = (screen: ViewScreen) => screen.queryAllByRole('alertdialog').find((d) => d.getAttribute('data-state') === 'open') ?? null;

const viewEvents = {
  'role.select': ({ screen, user, event }) => user.selectOptions(select(screen), event.group),
  'role.confirm': ({ screen, user }) => user.click(within(modal(screen)!).getByRole('button', { name: 'Confirm' })),
  'role.cancel': ({ screen, user }) => user.click(within(modal(screen)!).getByRole('button', { name: 'Cancel' })),
  // The refetched user list, not a person, tells the row its group.
  'role.sync': 'send-to-actor',
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  idle: ({ screen, snapshot }) => {
    expect(select(screen).value).toBe(snapshot.context.group);
    expect(select(screen).disabled).toBe(false);
    expect(modal(screen)).toBeNull();
  },
  requesting: ({ screen, snapshot }) => {
    expect(select(screen).value).toBe(snapshot.context.requested);
    expect(select(screen).disabled).toBe(true);
  },
  confirming: async ({ screen, snapshot }) => {
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Update user role')).toBeTruthy();
    expect(within(dialog).getByText(snapshot.context.prompt!)).toBeTruthy();
    expect(select(screen).value).toBe(snapshot.context.requested);
  },
  saving: ({ screen }) => {
    expect((within(modal(screen)!).getByRole('button', { name: /Confirm/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(select(screen).disabled).toBe(true);
  },
  cancelling: ({ screen, snapshot }) => {
    // The previous group shows again at once.
    expect(select(screen).value).toBe(snapshot.context.group);
    expect(select(screen).disabled).toBe(true);
  },
} satisfies ViewStates<typeof machine>;

describeModel('hepic role confirm machine', {
  name: 'hepic-role-confirm',
  machine,
  input: hepicRoleConfirmInput,
  events,
  states,
  serializeContext: (context) => ({ group: (context as { group: string }).group, requested: (context as { requested: string | null }).requested }),
  view: { render: (actor) => <HepicRoleControl actor={actor} />, events: viewEvents, states: viewStates },
});
