// @vitest-environment jsdom
// The statechart studio's inspect mode (development builds): actors made by useActorRef register themselves
// (src/machines/inspected-react.ts), the registry follows their snapshots, and the panel shows each one's live
// state and context.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, createActor, createMachine } from 'xstate';
import { inspectedActors, registerActor } from '../../src/machines/actor-inspection';
import { useActorRef } from '../../src/machines/inspected-react';
import { contextText, InspectPanel } from '../../src/views/statecharts/inspect-panel';

const toggle = createMachine({
  id: 'toggle',
  initial: 'off',
  context: { flips: 0 },
  states: {
    off: { on: { FLIP: { target: 'on', actions: assign({ flips: ({ context }) => context.flips + 1 }) } } },
    on: { on: { FLIP: { target: 'off', actions: assign({ flips: ({ context }) => context.flips + 1 }) } } },
  },
});

afterEach(cleanup);

describe('actor registry', () => {
  it('follows a registered actor until it is unregistered', () => {
    const actor = createActor(toggle).start();
    const unregister = registerActor('toggle', actor);
    expect(inspectedActors()).toEqual([expect.objectContaining({ name: 'toggle', value: 'off', context: { flips: 0 }, status: 'active', sessionId: actor.sessionId })]);
    actor.send({ type: 'FLIP' });
    expect(inspectedActors()[0]).toMatchObject({ value: 'on', context: { flips: 1 } });
    unregister();
    expect(inspectedActors()).toEqual([]);
    actor.stop();
  });
});

function Toggle() {
  const actor = useActorRef(toggle);
  return (
    <button type="button" onClick={() => actor.send({ type: 'FLIP' })}>
      Flip
    </button>
  );
}

describe('inspect panel', () => {
  it('lists the actors of the page with their live state and context, and drops them when they stop', () => {
    const page = render(
      <>
        <Toggle />
        <InspectPanel />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Inspect (1)' }));
    const panel = screen.getByRole('complementary', { name: /Actor inspection/ });
    const entry = within(panel).getByRole('listitem');
    expect(within(entry).getByText('toggle')).toBeTruthy();
    expect(within(entry).getByTestId('state').textContent).toBe('off');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Flip' })));
    expect(within(entry).getByTestId('state').textContent).toBe('on');
    expect(entry.querySelector('pre')!.textContent).toBe(contextText({ flips: 1 }));
    page.rerender(
      <>
        {null}
        <InspectPanel />
      </>,
    );
    expect(screen.getByText('No actor is running on this page.')).toBeTruthy();
  });

  it('writes a context with actor references and cycles without failing', () => {
    const actor = createActor(toggle).start();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(contextText({ child: actor, cyclic, run: () => 1 })).toContain('"child": "[actor');
    expect(contextText({ cyclic })).toContain('[circular]');
    actor.stop();
  });
});
