// Every machine of the console, one line each: what the statechart studio (/statecharts) lists, draws and steps, and
// what the browser path tests (e2e/model-paths.spec.ts) check their state → screen maps against.
//
// Adding a machine is one entry below: its file's base name (the same as docs/statecharts/<id>.md), the screen it
// drives, and a lazy `load` (the machine, its source text for the header comment, and optionally its sample events
// from `<flow>.samples.ts`, which its model test uses too, so the studio plays the paths the tests replay).
// tests/console/machine-catalogue.test.ts fails when a *.machine.ts file has no entry here.
import type { AnyStateMachine } from 'xstate';
import type { ModelSamples } from '../lib/model-paths';

export interface LoadedMachine {
  machine: AnyStateMachine;
  /** The machine file's text; its leading comment is the header the studio shows. */
  source: string;
  samples?: ModelSamples;
}

export interface MachineScreen {
  /** Path of the screen, without a leading slash. */
  path: string;
  /** The screen lives under a project (/{projectSlug}/{path}). */
  project?: boolean;
  label: string;
}

export interface MachineEntry {
  id: string;
  title: string;
  screen: MachineScreen;
  load: () => Promise<LoadedMachine>;
}

const loaded =
  <M extends Record<string, unknown>>(
    machineModule: () => Promise<M>,
    name: keyof M & string,
    source: () => Promise<{ default: string }>,
    samples?: () => Promise<ModelSamples>,
  ) =>
  async (): Promise<LoadedMachine> => {
    const [module, text, modelSamples] = await Promise.all([machineModule(), source(), samples?.()]);
    return { machine: module[name] as AnyStateMachine, source: text.default, samples: modelSamples };
  };

export const MACHINE_CATALOGUE: MachineEntry[] = [
  { id: 'account-deletion', title: 'Account deletion', screen: { path: 'account/delete', label: 'Delete account' }, load: loaded(() => import('./account-deletion/account-deletion.machine'), 'accountDeletionMachine', () => import('./account-deletion/account-deletion.machine.ts?raw')) },
  { id: 'auth', title: 'Sign-in session', screen: { path: '', label: 'Overview (signed in)' }, load: loaded(() => import('./auth/auth.machine'), 'authMachine', () => import('./auth/auth.machine.ts?raw'), async () => (await import('./auth/auth.samples')).authSamples) },
  { id: 'cancel-subscription', title: 'Cancel a subscription', screen: { path: 'stack/clickhouse', project: true, label: 'ClickHouse clusters' }, load: loaded(() => import('./cancel-subscription/cancel-subscription.machine'), 'cancelSubscriptionMachine', () => import('./cancel-subscription/cancel-subscription.machine.ts?raw')) },
  { id: 'card-setup', title: 'Card setup', screen: { path: 'billing', label: 'Billing' }, load: loaded(() => import('./card-setup/card-setup.machine'), 'cardSetupMachine', () => import('./card-setup/card-setup.machine.ts?raw')) },
  { id: 'cluster-lifecycle', title: 'Cluster lifecycle', screen: { path: 'stack/clickhouse', project: true, label: 'ClickHouse clusters' }, load: loaded(() => import('./cluster-lifecycle/cluster-lifecycle.machine'), 'clusterLifecycleMachine', () => import('./cluster-lifecycle/cluster-lifecycle.machine.ts?raw'), async () => (await import('./cluster-lifecycle/cluster-lifecycle.samples')).clusterLifecycleSamples) },
  { id: 'confirmed-change', title: 'Confirmed change', screen: { path: 'stack/qryn/auth', project: true, label: 'qryn Auth Tokens' }, load: loaded(() => import('./confirmed-change/confirmed-change.machine'), 'confirmedChangeMachine', () => import('./confirmed-change/confirmed-change.machine.ts?raw')) },
  { id: 'create-organization', title: 'Create organization', screen: { path: 'organization/create', label: 'Create an organization' }, load: loaded(() => import('./create-organization/create-organization.machine'), 'createOrganizationMachine', () => import('./create-organization/create-organization.machine.ts?raw'), async () => (await import('./create-organization/create-organization.samples')).createOrganizationSamples) },
  { id: 'enable-product', title: 'Enable a product', screen: { path: 'stack/add', project: true, label: 'Add a product' }, load: loaded(() => import('./enable-product/enable-product.machine'), 'enableProductMachine', () => import('./enable-product/enable-product.machine.ts?raw'), async () => (await import('./enable-product/enable-product.samples')).enableProductSamples) },
  { id: 'grafana-datasource', title: 'Grafana datasource', screen: { path: 'stack/grafana', project: true, label: 'Grafana' }, load: loaded(() => import('./grafana-datasource/grafana-datasource.machine'), 'grafanaDatasourceMachine', () => import('./grafana-datasource/grafana-datasource.machine.ts?raw')) },
  { id: 'grafana-users', title: 'Grafana users', screen: { path: 'stack/grafana', project: true, label: 'Grafana' }, load: loaded(() => import('./grafana-users/grafana-users.machine'), 'grafanaUsersMachine', () => import('./grafana-users/grafana-users.machine.ts?raw')) },
  { id: 'hepic-role-confirm', title: 'Hepic role confirm', screen: { path: 'stack/hepic/config', project: true, label: 'Hepic Config' }, load: loaded(() => import('./hepic-role-confirm/hepic-role-confirm.machine'), 'hepicRoleConfirmMachine', () => import('./hepic-role-confirm/hepic-role-confirm.machine.ts?raw'), async () => (await import('./hepic-role-confirm/hepic-role-confirm.samples')).hepicRoleConfirmSamples) },
  { id: 'invitation-accept', title: 'Accept an invitation', screen: { path: 'invitations', label: 'Invitation' }, load: loaded(() => import('./invitation-accept/invitation-accept.machine'), 'invitationAcceptMachine', () => import('./invitation-accept/invitation-accept.machine.ts?raw')) },
  { id: 'loggen-run', title: 'Loggen run', screen: { path: 'stack/loggen', project: true, label: 'Loggen' }, load: loaded(() => import('./loggen-run/loggen-run.machine'), 'loggenRunMachine', () => import('./loggen-run/loggen-run.machine.ts?raw'), async () => (await import('./loggen-run/loggen-run.samples')).loggenRunSamples) },
  { id: 'member-removal', title: 'Member removal', screen: { path: 'organization', label: 'Organization settings' }, load: loaded(() => import('./member-removal/member-removal.machine'), 'memberRemovalMachine', () => import('./member-removal/member-removal.machine.ts?raw')) },
  { id: 'member-role', title: 'Member role', screen: { path: 'organization', label: 'Organization settings' }, load: loaded(() => import('./member-role/member-role.machine'), 'memberRoleMachine', () => import('./member-role/member-role.machine.ts?raw')) },
  { id: 'password-change', title: 'Password change', screen: { path: 'account', label: 'Account settings' }, load: loaded(() => import('./password-change/password-change.machine'), 'passwordChangeMachine', () => import('./password-change/password-change.machine.ts?raw')) },
  { id: 'project-deletion', title: 'Project deletion', screen: { path: 'settings', project: true, label: 'Project settings' }, load: loaded(() => import('./project-deletion/project-deletion.machine'), 'projectDeletionMachine', () => import('./project-deletion/project-deletion.machine.ts?raw')) },
  { id: 'qryn-explorer', title: 'qryn explorer: credential and shell', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-explorer/qryn-explorer.machine'), 'qrynExplorerMachine', () => import('./qryn-explorer/qryn-explorer.machine.ts?raw')) },
  { id: 'qryn-metric-query', title: 'qryn explorer: metric query', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-explorer/qryn-metric-query.machine'), 'qrynMetricQueryMachine', () => import('./qryn-explorer/qryn-metric-query.machine.ts?raw')) },
  { id: 'qryn-key-rotation', title: 'qryn key rotation', screen: { path: 'stack/qryn', project: true, label: 'qryn Overview' }, load: loaded(() => import('./qryn-key-rotation/qryn-key-rotation.machine'), 'qrynKeyRotationMachine', () => import('./qryn-key-rotation/qryn-key-rotation.machine.ts?raw'), async () => (await import('./qryn-key-rotation/qryn-key-rotation.samples')).qrynKeyRotationSamples) },
  { id: 'qryn-log-search', title: 'qryn explorer: log search', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-logs/qryn-log-search.machine'), 'qrynLogSearchMachine', () => import('./qryn-logs/qryn-log-search.machine.ts?raw'), async () => (await import('./qryn-logs/qryn-log-search.samples')).qrynLogSearchSamples) },
  { id: 'qryn-log-tail', title: 'qryn explorer: live tail', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-logs/qryn-log-tail.machine'), 'qrynLogTailMachine', () => import('./qryn-logs/qryn-log-tail.machine.ts?raw'), async () => (await import('./qryn-logs/qryn-log-tail.samples')).qrynLogTailSamples) },
  { id: 'qryn-token-create', title: 'qryn token creation', screen: { path: 'stack/qryn/auth', project: true, label: 'qryn Auth Tokens' }, load: loaded(() => import('./qryn-token-create/qryn-token-create.machine'), 'qrynTokenCreateMachine', () => import('./qryn-token-create/qryn-token-create.machine.ts?raw')) },
  { id: 'qryn-trace-search', title: 'qryn explorer: trace search', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-traces/qryn-trace-search.machine'), 'qrynTraceSearchMachine', () => import('./qryn-traces/qryn-trace-search.machine.ts?raw'), async () => (await import('./qryn-traces/qryn-trace-search.samples')).qrynTraceSearchSamples) },
  { id: 'qryn-trace-metrics', title: 'qryn explorer: TraceQL metrics', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-traces/qryn-trace-metrics.machine'), 'qrynTraceMetricsMachine', () => import('./qryn-traces/qryn-trace-metrics.machine.ts?raw'), async () => (await import('./qryn-traces/qryn-trace-metrics.samples')).qrynTraceMetricsSamples) },
  { id: 'qryn-trace-view', title: 'qryn explorer: one trace', screen: { path: 'stack/qryn/view', project: true, label: 'qryn View' }, load: loaded(() => import('./qryn-traces/qryn-trace-view.machine'), 'qrynTraceViewMachine', () => import('./qryn-traces/qryn-trace-view.machine.ts?raw'), async () => (await import('./qryn-traces/qryn-trace-view.samples')).qrynTraceViewSamples) },
];

/** The leading comment of a machine file (block or line comments), without comment markers. */
export function headerComment(source: string): string {
  const block = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(source);
  if (block) {
    return block[1]
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n')
      .trim();
  }
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    const match = /^\s*\/\/ ?(.*)$/.exec(line);
    if (!match) break;
    lines.push(match[1]);
  }
  return lines.join('\n').trim();
}
