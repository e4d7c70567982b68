// 'Manage users from Grafana' (spec 001 §2, §5, §6): the Grafana users, the members of the project that can be added
// (the grafana-users machine) and the auto-add switch. Organization mode only; read-only members do not see it.
import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import { css } from 'styled-system/css';
import type { GrafanaUser } from '../../../../contract/grafana';
import type { Camelize } from '../../../lib/case';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Switch } from '../../../components/ui/switch';
import type { GrafanaCandidate, GrafanaUsersMachine } from '../../../machines/grafana-users/grafana-users.machine';

export const AUTO_ADD_LABEL = 'Automatically add users in the current project to Grafana.';
export const ALL_ADDED_MESSAGE = 'All members of this project have already been added to Grafana.';

export function GrafanaUsersAdd({ actor, candidates }: { actor: Actor<GrafanaUsersMachine>; candidates: readonly GrafanaCandidate[] }) {
  const selected = useSelector(actor, (s) => s.context.selected);
  const error = useSelector(actor, (s) => s.context.error);
  const adding = useSelector(actor, (s) => s.matches('adding'));
  if (candidates.length === 0) return <p className={css({ color: 'fg.muted' })}>{ALL_ADDED_MESSAGE}</p>;
  return (
    <form
      aria-label="Add users to Grafana"
      noValidate
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'users.submit' });
      }}
    >
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2', border: 'none', p: 0, m: 0 })} aria-describedby={error ? 'grafana-users-error' : undefined}>
        <legend className={css({ fontWeight: 'medium', mb: '2' })}>Project members</legend>
        {candidates.map((candidate) => (
          <Checkbox
            key={candidate.id}
            checked={selected.some((u) => u.id === candidate.id)}
            disabled={adding}
            onCheckedChange={() => actor.send({ type: 'users.toggle', user: candidate })}
          >
            {candidate.name} ({candidate.email})
          </Checkbox>
        ))}
      </fieldset>
      {error && (
        <Alert status="error">
          <span id="grafana-users-error">{error}</span>
        </Alert>
      )}
      <div>
        <Button type="submit" loading={adding}>
          Add to Grafana
        </Button>
      </div>
    </form>
  );
}

export function GrafanaUsersCard(props: {
  actor: Actor<GrafanaUsersMachine>;
  users: readonly Camelize<GrafanaUser>[];
  candidates: readonly GrafanaCandidate[];
  autoAdd: boolean;
  onAutoAddChange: (enabled: boolean) => void;
}) {
  return (
    <Card title="Manage users from Grafana" description="The people of this project who can open Grafana. Grafana's own roles follow their access: read-only members view, others edit.">
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
        <ul aria-label="Grafana users" className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          {props.users.map((user) => (
            <li key={user.userId}>
              <span className={css({ fontWeight: 'medium' })}>{user.name}</span> <span className={css({ color: 'fg.muted' })}>{user.email}</span>
            </li>
          ))}
        </ul>
        <GrafanaUsersAdd actor={props.actor} candidates={props.candidates} />
        <Switch checked={props.autoAdd} onCheckedChange={props.onAutoAddChange}>
          {AUTO_ADD_LABEL}
        </Switch>
      </div>
    </Card>
  );
}
