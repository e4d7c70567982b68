// Sample events of the cluster-lifecycle machine: what its model test (tests/model/cluster-lifecycle.test.tsx)
// replays, and what the browser walk (e2e/paths-cluster-lifecycle.spec.ts) and the statechart studio play. The read's
// outputs are the server's status of one cluster, one per status the machine tells apart.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { Cluster } from '../../services/clickhouse';
import type { ClusterLifecycleMachine } from './cluster-lifecycle.machine';

export const SAMPLE_CLUSTER: Cluster = {
  id: 4,
  projectId: 1,
  name: 'default',
  createdAt: '2026-11-23T10:00:00.000Z',
  status: 'active',
  statusReason: null,
  progress: null,
  host: '127.0.0.1',
  httpPort: 41000,
  tcpPort: 41001,
  secure: false,
  provider: 'aws',
  region: { code: 'eu-central-1', name: 'Europe (Frankfurt)', continent: 'Europe' },
  machine: null,
  shards: 1,
  replicas: 2,
  disks: [{ name: 'default', type: 'gp3', size: 150, unitType: 'Decimal' }],
  version: '18.16',
  zonal: false,
  zones: [],
  controlPlaneZone: null,
  isExternal: false,
  ipSafeList: [],
  adminUser: 'admin_one',
};
export const SAMPLE_CREATING: Cluster = { ...SAMPLE_CLUSTER, status: 'creating', progress: { current: 1, max: 2 } };
export const SAMPLE_DELETING: Cluster = { ...SAMPLE_CLUSTER, status: 'deleting' };
export const SAMPLE_FAILED: Cluster = { ...SAMPLE_CLUSTER, status: 'failed', statusReason: 'Node 2 (port 41002) stopped while starting: Address already in use' };
export const SAMPLE_STOPPED: Cluster = { ...SAMPLE_CLUSTER, status: 'stopped' };
export const SAMPLE_EXTERNAL: Cluster = { ...SAMPLE_CLUSTER, name: 'ext', status: 'external', isExternal: true, provider: 'unknown', region: null };
export const SAMPLE_DELETE_REFUSED = { message: 'The cluster is being created', description: 'Try again when it is active or failed.' };

const read = (output: Cluster | null) => ({ type: 'xstate.done.actor.readCluster', output });

export const clusterLifecycleEvents = {
  'cluster.delete': [{ type: 'cluster.delete' }],
  'cluster.confirm': [{ type: 'cluster.confirm' }],
  'cluster.cancel': [{ type: 'cluster.cancel' }],
  'cluster.retry': [{ type: 'cluster.retry' }],
  'xstate.done.actor.readCluster': [
    read(SAMPLE_CLUSTER),
    read(SAMPLE_CREATING),
    read(SAMPLE_DELETING),
    read(SAMPLE_FAILED),
    read(SAMPLE_STOPPED),
    read(SAMPLE_EXTERNAL),
    read(null),
  ],
  'xstate.error.actor.readCluster': [{ type: 'xstate.error.actor.readCluster', error: new Error('Network') }],
  'xstate.done.actor.deleteCluster': [{ type: 'xstate.done.actor.deleteCluster', output: { message: 'The cluster default is being deleted.' } }],
  'xstate.error.actor.deleteCluster': [
    { type: 'xstate.error.actor.deleteCluster', error: Object.assign(new Error(SAMPLE_DELETE_REFUSED.message), { description: SAMPLE_DELETE_REFUSED.description }) },
  ],
  'xstate.after.2000.clusterLifecycle.creating': [{ type: 'xstate.after.2000.clusterLifecycle.creating' }],
  'xstate.after.2000.clusterLifecycle.deleting': [{ type: 'xstate.after.2000.clusterLifecycle.deleting' }],
} as unknown as ModelEvents<ClusterLifecycleMachine>;

export const clusterLifecycleSamples: ModelSamples = {
  events: clusterLifecycleEvents,
  serializeContext: (context: { cluster: Cluster | null; error: string | null }) => ({ status: context.cluster?.status ?? null, error: context.error !== null }),
  simplePaths: false,
};
