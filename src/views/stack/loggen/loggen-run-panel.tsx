// The run part of the Loggen page: the Save button that becomes 'Running... N%', Stop, and how the last run ended.
// It only reads the loggen-run actor and sends it events, so the model test replays the machine's paths through it.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useFocusReturn } from '../../../components/ui/focus-return';
import { LOGGEN_DONE, LOGGEN_FAILED, runningLabel, type loggenRunMachine } from '../../../machines/loggen-run/loggen-run.machine';

export type LoggenRunActor = ActorRefFrom<typeof loggenRunMachine>;

export function LoggenRunPanel({ actor, onSave, disabled }: { actor: LoggenRunActor; onSave: () => void; disabled?: boolean }) {
  const state = useSelector(actor, (s) => {
    if (s.matches('running')) return 'running';
    return s.value as 'checking' | 'idle' | 'saving' | 'stopping' | 'done' | 'failed';
  });
  const progress = useSelector(actor, (s) => s.context.progress);
  const error = useSelector(actor, (s) => s.context.error);
  const busy = state === 'checking' || state === 'saving' || state === 'running' || state === 'stopping';
  // Stop goes away and Save and run is disabled while the run stops: focus comes to Save and run after.
  const save = useFocusReturn<HTMLButtonElement>(!busy && !disabled);
  const percent = progress && progress.max > 0 ? Math.floor((progress.current / progress.max) * 100) : 0;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      {state === 'running' && (
        <div role="progressbar" aria-label="Loggen run" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className={css({ h: '2', bg: 'bg.subtle', borderWidth: '1px', borderColor: 'border.default', rounded: 'full', overflow: 'hidden' })}>
          <div className={css({ h: 'full', bg: 'accent.default', transition: 'width 0.25s' })} style={{ width: `${percent}%` }} />
        </div>
      )}
      {state === 'done' && (
        <Alert status="success" title={LOGGEN_DONE}>
          {progress ? `${progress.current} log lines were accepted by the qryn instance.` : null}
        </Alert>
      )}
      {state === 'failed' && (
        <Alert status="error" title={LOGGEN_FAILED}>
          {error}
        </Alert>
      )}
      <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
        {state === 'running' && (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              save.start();
              actor.send({ type: 'run.stop' });
            }}
          >
            Stop
          </Button>
        )}
        <Button ref={save.ref} type="button" disabled={busy || disabled} loading={state === 'saving' || state === 'stopping' || state === 'checking'} onClick={onSave}>
          {state === 'running' ? runningLabel(progress) : 'Save and run'}
        </Button>
      </div>
    </div>
  );
}
