/**
 * Cluster lifecycle: the cluster page follows the server's status of one ClickHouse cluster (spec 001 §4 Cluster
 * status values) by polling GET integrations/clickhouse/clusters, and runs delete / disconnect with a confirm.
 * States:
 * - loading            reads the cluster; its status picks the next state
 * - creating           the provisioning job runs (progress n/N shown); read again every 2 s
 * - active             every node answers; links and metrics shown; delete allowed
 * - failed             a node did not come up (the reason is shown); delete allowed
 * - stopped            the servers are stopped; delete allowed
 * - external           a cluster run elsewhere; links and metrics shown; disconnect allowed
 * - deleting           the deletion job runs; read again every 2 s until the cluster is gone
 * - confirming         the delete / disconnect confirm is open
 * - requestingDelete   DELETE integrations/clickhouse/clusters is on its way
 * - gone               the cluster no longer exists (deleted); the page leaves it
 * - error              the read or the delete failed; retry reads again
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Cluster } from '../../services/clickhouse';

export const CLUSTER_POLL_MS = 2_000;
export const CLUSTER_READ_FAILED = 'We encountered an error while fetching some data.';

export interface ClusterLifecycleContext {
  cluster: Cluster | null;
  error: string | null;
}

export type ClusterLifecycleEvent = { type: 'cluster.delete' } | { type: 'cluster.confirm' } | { type: 'cluster.cancel' } | { type: 'cluster.retry' };

const errorText = (error: unknown, fallback: string) => {
  const e = error as { description?: unknown; message?: unknown } | null;
  if (e && typeof e.message === 'string' && e.message) return typeof e.description === 'string' && e.description ? `${e.message}: ${e.description}` : e.message;
  return fallback;
};

const statusIs = (status: Cluster['status']) => ({ event }: { event: { output: Cluster | null } }) => event.output?.status === status;

export const clusterLifecycleMachine = setup({
  types: {
    context: {} as ClusterLifecycleContext,
    events: {} as ClusterLifecycleEvent,
  },
  actors: {
    readCluster: fromPromise<Cluster | null>(async () => {
      throw new Error('readCluster is provided where the actor is created');
    }),
    deleteCluster: fromPromise<{ message: string }, { clusterId: number }>(async () => {
      throw new Error('deleteCluster is provided where the actor is created');
    }),
  },
  actions: {
    // React-only effects, supplied with .provide() where the actor is created.
    notifyDeleteRequested: (_, _params: { message: string }) => undefined,
  },
}).createMachine({
  id: 'clusterLifecycle',
  context: { cluster: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'readCluster',
        src: 'readCluster',
        onDone: [
          { guard: ({ event }) => event.output === null, target: 'gone', actions: assign({ cluster: null, error: null }) },
          { guard: statusIs('creating'), target: 'creating', actions: assign({ cluster: ({ event }) => event.output, error: null }) },
          { guard: statusIs('deleting'), target: 'deleting', actions: assign({ cluster: ({ event }) => event.output, error: null }) },
          { guard: statusIs('failed'), target: 'failed', actions: assign({ cluster: ({ event }) => event.output, error: null }) },
          { guard: statusIs('stopped'), target: 'stopped', actions: assign({ cluster: ({ event }) => event.output, error: null }) },
          { guard: statusIs('external'), target: 'external', actions: assign({ cluster: ({ event }) => event.output, error: null }) },
          { target: 'active', actions: assign({ cluster: ({ event }) => event.output, error: null }) },
        ],
        onError: { target: 'error', actions: assign({ error: ({ event }) => errorText(event.error, CLUSTER_READ_FAILED) }) },
      },
    },
    creating: { after: { [CLUSTER_POLL_MS]: 'loading' } },
    deleting: { after: { [CLUSTER_POLL_MS]: 'loading' } },
    active: { on: { 'cluster.delete': 'confirming' } },
    failed: { on: { 'cluster.delete': 'confirming' } },
    stopped: { on: { 'cluster.delete': 'confirming' } },
    external: { on: { 'cluster.delete': 'confirming' } },
    confirming: {
      on: {
        'cluster.confirm': 'requestingDelete',
        // Back to whatever the server says now (the status may have moved while the confirm was open).
        'cluster.cancel': 'loading',
      },
    },
    requestingDelete: {
      invoke: {
        id: 'deleteCluster',
        src: 'deleteCluster',
        input: ({ context }) => ({ clusterId: context.cluster!.id }),
        onDone: { target: 'loading', actions: { type: 'notifyDeleteRequested', params: ({ event }) => ({ message: event.output.message }) } },
        onError: { target: 'error', actions: assign({ error: ({ event }) => errorText(event.error, 'The cluster could not be deleted.') }) },
      },
    },
    gone: { type: 'final' },
    error: { on: { 'cluster.retry': { target: 'loading', actions: assign({ error: null }) } } },
  },
});

export type ClusterLifecycleMachine = typeof clusterLifecycleMachine;
