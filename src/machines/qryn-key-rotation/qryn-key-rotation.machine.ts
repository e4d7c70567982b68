/**
 * Rotating qryn's API key and secret from the Overview (spec 001 §2 qryn: the rotate modal, §8 'API keys rotated
 * successfully').
 * States:
 * - closed       no modal
 * - confirming   'Are you sure you want to rotate the keys?' with the note to update every application; Cancel / Rotate Keys
 * - rotating     GET config/credentials/rotate; the modal stays open with its button pending
 * - rotated      the new key and secret, shown this once with copy buttons (the old pair is already refused)
 * - failed       the modal stays open with the reason; confirm again or cancel
 * `rotation.cancel` closes from every open state except rotating; the new secret is forgotten on close.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../error-message';

export const ROTATE_KEYS_QUESTION = 'Are you sure you want to rotate the keys?';
export const ROTATE_KEYS_NOTE = 'The current API key and secret stop working at once: update all the applications that ingest data with the new ones.';
export const ROTATION_FAILED_MESSAGE = 'The keys could not be rotated. Please try again.';

export interface RotatedKeys {
  apiKey: string;
  apiSecret: string;
}

export interface KeyRotationContext {
  keys: RotatedKeys | null;
  error: string | null;
}

export type KeyRotationEvent = { type: 'rotation.open' } | { type: 'rotation.confirm' } | { type: 'rotation.cancel' };

export const qrynKeyRotationMachine = setup({
  types: { context: {} as KeyRotationContext, events: {} as KeyRotationEvent },
  actors: {
    rotateKeys: fromPromise<RotatedKeys & { message: string }>(async () => {
      throw new Error('rotateKeys is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyRotated: (_, _params: { message: string }) => undefined,
    refreshConfig: () => undefined,
  },
}).createMachine({
  id: 'qrynKeyRotation',
  context: { keys: null, error: null },
  initial: 'closed',
  states: {
    closed: { on: { 'rotation.open': { target: 'confirming', actions: assign({ keys: null, error: null }) } } },
    confirming: {
      on: { 'rotation.confirm': 'rotating', 'rotation.cancel': 'closed' },
    },
    rotating: {
      invoke: {
        id: 'rotateKeys',
        src: 'rotateKeys',
        onDone: {
          target: 'rotated',
          actions: [
            assign({ keys: ({ event }) => ({ apiKey: event.output.apiKey, apiSecret: event.output.apiSecret }) }),
            { type: 'notifyRotated', params: ({ event }) => ({ message: event.output.message }) },
            'refreshConfig',
          ],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error, ROTATION_FAILED_MESSAGE) }) },
      },
    },
    rotated: { on: { 'rotation.cancel': { target: 'closed', actions: assign({ keys: null }) } } },
    failed: {
      on: {
        'rotation.confirm': { target: 'rotating', actions: assign({ error: null }) },
        'rotation.cancel': { target: 'closed', actions: assign({ error: null }) },
      },
    },
  },
});

export type QrynKeyRotationMachine = typeof qrynKeyRotationMachine;
