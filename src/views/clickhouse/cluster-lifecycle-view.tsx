// The cluster page's lifecycle part (spec 001 §2 ClickHouse, §4): the info card with the status (and progress while
// the cluster is created or deleted), the links card (active or external only), and delete / disconnect with a
// confirm, disabled while creating or deleting. Driven by a cluster-lifecycle actor.
import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Alert } from '../../components/ui/alert';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { Dialog } from '../../components/ui/dialog';
import { useFocusReturn } from '../../components/ui/focus-return';
import { Spinner } from '../../components/ui/spinner';
import type { ClusterLifecycleMachine } from '../../machines/cluster-lifecycle/cluster-lifecycle.machine';
import type { Cluster } from '../../services/clickhouse';

const TONE: Record<Cluster['status'], BadgeTone> = {
  creating: 'accent',
  active: 'success',
  deleting: 'warning',
  failed: 'danger',
  stopped: 'neutral',
  external: 'accent',
};

export const clientCommand = (cluster: Pick<Cluster, 'host' | 'tcpPort' | 'adminUser' | 'secure'>) =>
  `clickhouse-client --host ${cluster.host} --port ${cluster.tcpPort} --user ${cluster.adminUser}${cluster.secure ? ' --secure' : ''} --password`;
export const httpEndpoint = (cluster: Pick<Cluster, 'host' | 'httpPort' | 'secure'>) => `${cluster.secure ? 'https' : 'http'}://${cluster.host}:${cluster.httpPort}`;

export function ClusterLifecycleView({ actor, readOnly = false }: { actor: ActorRefFrom<ClusterLifecycleMachine>; readOnly?: boolean }) {
  const state = useSelector(actor, (s) => s);
  const cluster = state.context.cluster;
  const canDelete = state.can({ type: 'cluster.delete' });
  // Cancelling the confirm reads the cluster again with the button disabled: focus comes back to it after.
  const trigger = useFocusReturn<HTMLButtonElement>(canDelete);
  // The machine forgets the cluster when it is gone; what it was decides the words (an external one is disconnected).
  const wasExternal = useRef(false);
  if (cluster) wasExternal.current = cluster.isExternal;
  if (state.matches('loading') && !cluster) return <Spinner label="Loading the cluster" />;
  if (state.matches('gone')) return <Alert status="info">{wasExternal.current ? 'This cluster has been disconnected.' : 'This cluster has been deleted.'}</Alert>;
  const busy = state.matches('creating') || state.matches('deleting') || state.matches('requestingDelete') || (cluster !== null && (cluster.status === 'creating' || cluster.status === 'deleting'));
  const external = cluster?.isExternal ?? false;
  const action = external ? 'Disconnect' : 'Delete';
  const linked = cluster !== null && (cluster.status === 'active' || cluster.status === 'external');
  return (
    <>
      {state.matches('error') && (
        <Alert status="error" title={state.context.error ?? undefined} action={<Button size="sm" onClick={() => actor.send({ type: 'cluster.retry' })}>Try again</Button>}>
          Please reload the page, and contact support if the problem persists.
        </Alert>
      )}
      {cluster && (
        <Card
          title={cluster.name}
          headerAction={
            readOnly ? undefined : (
              <Button
                ref={trigger.ref}
                variant="outline"
                disabled={busy || !canDelete}
                onClick={() => {
                  trigger.start();
                  actor.send({ type: 'cluster.delete' });
                }}
              >
                {action} cluster
              </Button>
            )
          }
        >
          <p>
            Status: <Badge tone={TONE[cluster.status]}>{cluster.status}</Badge>
          </p>
          {cluster.progress && (cluster.status === 'creating' || cluster.status === 'deleting') && (
            <p role="status">
              {cluster.status === 'creating' ? 'Starting nodes' : 'Stopping nodes'}: {cluster.progress.current} of {cluster.progress.max}
            </p>
          )}
          {cluster.status === 'creating' && !cluster.progress && <p role="status">Waiting for the servers to start…</p>}
          {cluster.status === 'deleting' && <p role="status">The servers are being stopped and their data removed…</p>}
          {cluster.status === 'failed' && <Alert status="error" title="The cluster could not be created">{cluster.statusReason}</Alert>}
          {!external && (
            <p>
              {cluster.shards} shard(s) × {cluster.replicas} replica(s), ClickHouse {cluster.version}
              {cluster.region ? `, ${cluster.region.name} (${cluster.provider})` : ''}
            </p>
          )}
        </Card>
      )}
      {cluster && linked && (
        <Card title="Links">
          <dl>
            <dt>HTTP endpoint</dt>
            <dd>
              <code>{httpEndpoint(cluster)}</code> <CopyButton value={httpEndpoint(cluster)} label="Copy HTTP endpoint" />
            </dd>
            <dt>TCP endpoint</dt>
            <dd>
              <code>
                {cluster.host}:{cluster.tcpPort}
              </code>{' '}
              <CopyButton value={`${cluster.host}:${cluster.tcpPort}`} label="Copy TCP endpoint" />
            </dd>
            <dt>Username</dt>
            <dd>
              <code>{cluster.adminUser}</code> <CopyButton value={cluster.adminUser} label="Copy username" />
            </dd>
            <dt>Client command</dt>
            <dd>
              <code>{clientCommand(cluster)}</code> <CopyButton value={clientCommand(cluster)} label="Copy client command" />
            </dd>
          </dl>
        </Card>
      )}
      <Dialog
        open={state.matches('confirming') || state.matches('requestingDelete')}
        onOpenChange={(open) => {
          if (!open && state.matches('confirming')) actor.send({ type: 'cluster.cancel' });
        }}
        role="alertdialog"
        finalFocus={trigger.ref}
        title={`${action} ${cluster?.name ?? 'cluster'}?`}
        description={
          external
            ? 'The platform forgets this cluster and its credentials. The cluster itself keeps running.'
            : 'Every server of this cluster is stopped and its data is removed. This action cannot be undone.'
        }
        footer={
          <>
            <Button variant="outline" disabled={state.matches('requestingDelete')} onClick={() => actor.send({ type: 'cluster.cancel' })}>
              Cancel
            </Button>
            <Button loading={state.matches('requestingDelete')} onClick={() => actor.send({ type: 'cluster.confirm' })}>
              {action}
            </Button>
          </>
        }
      />
    </>
  );
}
