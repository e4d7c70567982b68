// @vitest-environment jsdom
// Model-based test of the cluster-lifecycle machine: every generated path is replayed on a real actor with the read
// and delete calls as controlled doubles (the server's status as their outputs), and through the cluster page's
// lifecycle view.
import { expect } from 'vitest';
import { CLUSTER_READ_FAILED, clusterLifecycleMachine } from '../../src/machines/cluster-lifecycle/cluster-lifecycle.machine';
import { SAMPLE_CLUSTER, clusterLifecycleEvents } from '../../src/machines/cluster-lifecycle/cluster-lifecycle.samples';
import { ClusterLifecycleView, clientCommand, httpEndpoint } from '../../src/views/clickhouse/cluster-lifecycle-view';
import { installDomStubs } from '../console/organization/dom-stubs';
import { describeModel, type ModelEvents, type ModelStates, type ViewEvents, type ViewScreen, type ViewStates } from '../support/model-based';

installDomStubs();

const base = SAMPLE_CLUSTER;

const toasts: string[] = [];
const machine = clusterLifecycleMachine.provide({ actions: { notifyDeleteRequested: (_, params) => void toasts.push(params.message) } });

// The same samples the browser walk and the statechart studio play.
const events = clusterLifecycleEvents as unknown as ModelEvents<typeof machine>;

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
  // Deleted for a managed cluster, disconnected for an external one (the view remembers which it was).
  gone: ({ screen }) => expect(screen.getByText(/^This cluster has been (deleted|disconnected)\.$/)).toBeTruthy(),
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
