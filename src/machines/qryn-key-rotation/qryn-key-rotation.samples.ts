// Sample events of the qryn key-rotation machine: what its model test (tests/model/qryn-key-rotation.test.tsx)
// replays, and what the browser walk (e2e/paths-qryn-key-rotation.spec.ts) and the statechart studio play.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { QrynKeyRotationMachine } from './qryn-key-rotation.machine';

export const SAMPLE_ROTATED_KEYS = { apiKey: 'qk_new', apiSecret: 'qs_new_secret', message: 'API keys rotated successfully' };
export const SAMPLE_ROTATION_FAILURE = 'The storage is not available.';

export const qrynKeyRotationEvents = {
  'rotation.open': [{ type: 'rotation.open' }],
  'rotation.confirm': [{ type: 'rotation.confirm' }],
  'rotation.cancel': [{ type: 'rotation.cancel' }],
  'xstate.done.actor.rotateKeys': [{ type: 'xstate.done.actor.rotateKeys', output: SAMPLE_ROTATED_KEYS }],
  'xstate.error.actor.rotateKeys': [
    { type: 'xstate.error.actor.rotateKeys', error: Object.assign(new Error('x'), { description: SAMPLE_ROTATION_FAILURE }) },
  ],
} satisfies ModelEvents<QrynKeyRotationMachine>;

export const qrynKeyRotationSamples: ModelSamples = { events: qrynKeyRotationEvents };
