import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { qrynLogTailMachine, type LogTailEvent, type TailRequest } from '../../src/machines/qryn-logs/qryn-log-tail.machine';
import type { LogLine } from '../../src/services/qryn-logs';

// The explorer's live tail across a reconnect: when the instance closes the tail because the console's token
// expired, a new socket opens from the newest line's timestamp and the lines it sends again are not shown twice (no
// gap, no duplicate); a revoked credential ends in the error state.

const REQUEST: TailRequest = { instanceUrl: 'http://127.0.0.1:8080/qryn/0123456789abcdef', auth: 'session', query: '{job="app"}' };
const line = (s: number, text: string, key: number): LogLine => ({ tsNs: `${1764003000 + s}000000000`, line: text, labels: { job: 'app' }, level: 'info', key: `tail-${key}` });

function start() {
  const inputs: TailRequest[] = [];
  const refusals: string[] = [];
  const actor = createActor(
    qrynLogTailMachine.provide({
      actors: { tailSocket: fromCallback<LogTailEvent, TailRequest>(({ input }) => void inputs.push(input)) },
      actions: { credentialRefused: () => void refusals.push('refused') },
    }),
  ).start();
  actor.send({ type: 'tail.start', request: REQUEST });
  actor.send({ type: 'tail.opened' });
  return { actor, inputs, refusals };
}

describe('live tail reconnect', () => {
  it('reconnects from the newest line after an expired token, without repeating lines', () => {
    const { actor, inputs } = start();
    actor.send({ type: 'tail.lines', lines: [line(1, 'a', 0), line(2, 'b', 1), line(2, 'c', 2)] });
    actor.send({ type: 'tail.expired' });
    expect(actor.getSnapshot().matches({ live: 'connecting' })).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]).toEqual({ ...REQUEST, resumeFromNs: line(2, '', 0).tsNs, keyFrom: 3 });
    actor.send({ type: 'tail.opened' });
    // The new socket's history starts at the newest line's timestamp: b and c again, then d at the same time, then e.
    actor.send({ type: 'tail.lines', lines: [line(2, 'b', 3), line(2, 'c', 4), line(2, 'd', 5), line(3, 'e', 6)] });
    expect(actor.getSnapshot().context.lines.map((l) => l.line)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(new Set(actor.getSnapshot().context.lines.map((l) => l.key)).size).toBe(5);
  });

  it('shows the lines waiting in a pause when it reconnects', () => {
    const { actor, inputs } = start();
    actor.send({ type: 'tail.lines', lines: [line(1, 'a', 0)] });
    actor.send({ type: 'tail.pause' });
    actor.send({ type: 'tail.lines', lines: [line(2, 'b', 1)] });
    actor.send({ type: 'tail.expired' });
    expect(actor.getSnapshot().context.lines.map((l) => l.line)).toEqual(['b', 'a']);
    expect(inputs[1].resumeFromNs).toBe(line(2, '', 0).tsNs);
  });

  it('ends in the error state on a revoked credential', () => {
    const { actor, refusals } = start();
    actor.send({ type: 'tail.failed', message: 'The credentials no longer give read access to this instance.', refused: true });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('The credentials no longer give read access to this instance.');
    expect(refusals).toEqual(['refused']);
  });
});
