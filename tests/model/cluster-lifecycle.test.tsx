// @vitest-environment jsdom
// Model-based test of the cluster-lifecycle machine: every generated path is replayed on a real actor with the read
// and delete calls as controlled doubles (the server's status as their outputs), and through the cluster page's
// lifecycle view.
import { expect } from 'vitest';
import { CLUSTER_READ_FAILED, clusterLifecycleMachine } from '../../src/machines/cluster-lifecycle/cluster-lifecycle.machine';
import type { Cluster } from '../../src/services/clickhouse';
import { ClusterLifecycleView, clientCommand, httpEndpoint } from '../../src/views/clickhouse/cluster-lifecycle-view';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const base: Cluster = {
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
const creating: Cluster = { ...base, status: 'creating', progress: { current: 1, max: 2 } };
const deleting: Cluster = { ...base, status: 'deleting' };
const failed: Cluster = { ...base, status: 'failed', statusReason: 'Node 2 (port 41002) stopped while starting: Address already in use' };
const stopped: Cluster = { ...base, status: 'stopped' };
const external: Cluster = { ...base, name: 'ext', status: 'external', isExternal: true, provider: 'unknown', region: null };

const toasts: string[] = [];
const machine = clusterLifecycleMachine.provide({ actions: { notifyDeleteRequested: (_, params) => void toasts.push(params.message) } });

const read = (output: Cluster | null) => ({ type: 'xstate.done.actor.readCluster', output });
const events = {
  'cluster.delete': [{ type: 'cluster.delete' }],
  'cluster.confirm': [{ type: 'cluster.confirm' }],
  'cluster.cancel': [{ type: 'cluster.cancel' }],
  'cluster.retry': [{ type: 'cluster.retry' }],
  'xstate.done.actor.readCluster': [read(base), read(creating), read(deleting), read(failed), read(stopped), read(external), read(null)],
  'xstate.error.actor.readCluster': [{ type: 'xstate.error.actor.readCluster', error: new Error('Network') }],
  'xstate.done.actor.deleteCluster': [{ type: 'xstate.done.actor.deleteCluster', output: { message: 'The cluster default is being deleted.' } }],
  'xstate.error.actor.deleteCluster': [
    { type: 'xstate.error.actor.deleteCluster', error: Object.assign(new Error('The cluster is being created'), { description: 'Try again when it is active or failed.' }) },
  ],
  'xstate.after.2000.clusterLifecycle.creating': [{ type: 'xstate.after.2000.clusterLifecycle.creating' }],
  'xstate.after.2000.clusterLifecycle.deleting': [{ type: 'xstate.after.2000.clusterLifecycle.deleting' }],
} as unknown as ModelEvents<typeof machine>;

const states = {
  loading: () => undefined,
  creating: (s) => expect(s.context.cluster?.status).toBe('creating'),
  active: (s) => expect(s.context.cluster?.status).toBe('active'),
  failed: (s) => expect(s.context.cluster?.statusReason).toContain('stopped while starting'),
  stopped: (s) => expect(s.context.cluster?.status).toBe('stopped'),
  external: (s) => expect(s.context.cluster?.isExternal).toBe(true),
  deleting: (s) => expect(s.context.cluster?.status).toBe('deleting'),
  confirming: (s) => expect(s.can({ type: 'cluster.confirm' })).toBe(true),
  requestingDelete: (s) => expect(s.can({ type: 'cluster.delete' })).toBe(false),
  gone: (s) => expect(s.context.cluster).toBeNull(),
  error: (s) => expect([CLUSTER_READ_FAILED, 'Network', 'The cluster is being created: Try again when it is active or failed.']).toContain(s.context.error),
} satisfies ModelStates<typeof machine>;

const deleteButton = (screen: ViewScreen) => screen.getByRole('button', { name: /^(Delete|Disconnect) cluster$/ }) as HTMLButtonElement;
const dialogOpen = (screen: ViewScreen) => screen.queryByRole('alertdialog')?.getAttribute('data-state') === 'open';

const viewEvents = {
  'cluster.delete': ({ screen, user }) => user.click(deleteButton(screen)),
  'cluster.confirm': ({ screen, user }) => user.click(screen.getByRole('button', { name: /^(Delete|Disconnect)$/ })),
  'cluster.cancel': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Cancel' })),
  'cluster.retry': ({ screen, user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
} satisfies ViewEvents<typeof machine>;

const viewStates = {
  loading: () => undefined,
  creating: ({ screen }) => {
    expect(screen.getByRole('status').textContent).toContain('Starting nodes: 1 of 2');
    expect(deleteButton(screen).disabled).toBe(true);
    expect(screen.queryByText('Links')).toBeNull();
  },
  active: ({ screen }) => {
    expect(deleteButton(screen).disabled).toBe(false);
    expect(screen.getByText(httpEndpoint(base))).toBeTruthy();
    expect(screen.getByText(clientCommand(base))).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy client command' })).toBeTruthy();
  },
  failed: ({ screen }) => {
    expect(screen.getByText(/stopped while starting/)).toBeTruthy();
    expect(deleteButton(screen).disabled).toBe(false);
    expect(screen.queryByText('Links')).toBeNull();
  },
  stopped: ({ screen }) => {
    expect(screen.getByText('stopped')).toBeTruthy();
    expect(screen.queryByText('Links')).toBeNull();
  },
  external: ({ screen }) => {
    expect(screen.getByRole('button', { name: 'Disconnect cluster' }).hasAttribute('disabled')).toBe(false);
    expect(screen.getByText('Links')).toBeTruthy();
  },
  deleting: ({ screen }) => {
    expect(screen.getByRole('status').textContent).toContain('being stopped');
    expect(deleteButton(screen).disabled).toBe(true);
  },
  confirming: ({ screen }) => expect(dialogOpen(screen)).toBe(true),
  requestingDelete: ({ screen }) => {
    expect(dialogOpen(screen)).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  },
  gone: ({ screen }) => expect(screen.getByText('This cluster has been deleted.')).toBeTruthy(),
  error: ({ screen }) => expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy(),
} satisfies ViewStates<typeof machine>;

describeModel('cluster lifecycle machine', {
  name: 'cluster-lifecycle',
  machine,
  events,
  states,
  serializeContext: (context) => ({ status: context.cluster?.status ?? null, error: context.error !== null }),
  simplePaths: false,
  view: { render: (actor) => <ClusterLifecycleView actor={actor} />, events: viewEvents, states: viewStates },
});
