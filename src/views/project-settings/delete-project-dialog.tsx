// The delete-project modal (spec 000 section 2 Delete project card, section 5 typed confirmation), driven by a
// project-deletion actor.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/field';
import { PROJECT_NAME_MISMATCH, type ProjectDeletionMachine } from '../../machines/project-deletion/project-deletion.machine';

export const DELETE_PROJECT_WARNING = 'Deleting a project will remove all its data and users. This action cannot be undone.';

export function DeleteProjectDialog({ actor }: { actor: ActorRefFrom<ProjectDeletionMachine> }) {
  const state = useSelector(actor, (s) => s);
  const deleting = state.matches('deleting');
  const project = state.context.project;
  const mismatch = state.matches({ confirming: 'mismatch' });
  return (
    <Dialog
      open={!state.matches('closed') && !state.matches('deleted')}
      onOpenChange={(open) => {
        if (!open) actor.send({ type: 'deletion.cancel' });
      }}
      role="alertdialog"
      title={<>Delete <bdi>{project?.name ?? 'project'}</bdi>?</>}
      description={DELETE_PROJECT_WARNING}
      footer={
        <>
          <Button variant="outline" disabled={deleting} onClick={() => actor.send({ type: 'deletion.cancel' })}>
            Cancel
          </Button>
          <Button loading={deleting} disabled={!state.can({ type: 'deletion.confirm' })} onClick={() => actor.send({ type: 'deletion.confirm' })}>
            Confirm
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (actor.getSnapshot().can({ type: 'deletion.confirm' })) actor.send({ type: 'deletion.confirm' });
        }}
      >
        <Field label={<>Type <strong>{project?.slug}</strong> to confirm</>} errorText={mismatch ? PROJECT_NAME_MISMATCH : undefined}>
          <Input
            name="confirmation"
            autoComplete="off"
            autoFocus
            value={state.context.typed}
            readOnly={deleting || state.matches('failed')}
            onChange={(event) => actor.send({ type: 'deletion.type', text: event.target.value })}
          />
        </Field>
      </form>
      {state.matches('failed') && <Alert status="error">{state.context.error}</Alert>}
    </Dialog>
  );
}
