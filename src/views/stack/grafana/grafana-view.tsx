// /{projectSlug}/stack/grafana (spec 001 §2 Grafana): 'Connect integrations' (the qryn datasources, ClickHouse
// datasources and dashboards), 'How to use Grafana', the links card (Launch Grafana, Export Dashboards, Cancel
// subscription) and 'Manage users from Grafana'. RequireIntegration sends people who are not Grafana users back
// to the stack page. ?modal=add-qryn-datasource opens the qryn datasource modal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import {
  EXPORT_FAILED_MESSAGE,
  EXPORT_SUCCESS_MESSAGE,
  GRAFANA_DOCS_URL,
  ORGANIZATION_MODE_MESSAGE,
  SELECT_CLUSTERS_MESSAGE,
  clickhouseDatasourceName,
  qrynDatasourceName,
} from '../../../../contract/grafana';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Spinner } from '../../../components/ui/spinner';
import { grafanaDatasourceMachine, type DatasourceForm } from '../../../machines/grafana-datasource/grafana-datasource.machine';
import { grafanaUsersMachine, type GrafanaCandidate } from '../../../machines/grafana-users/grafana-users.machine';
import { listClusters } from '../../../services/clickhouse';
import {
  addGrafanaUsers,
  createGrafanaDashboards,
  createGrafanaDatasource,
  exportGrafanaDashboards,
  getGrafanaConfig,
  getQrynDatasources,
  listGrafanaDashboards,
  listGrafanaDatasources,
  listGrafanaUsers,
  saveBlob,
  setGrafanaAutoAdd,
} from '../../../services/grafana';
import { listProjectUsers } from '../../../services/projects';
import { toast } from '../../../services/toast-store';
import { queries } from '../../../app/query-keys';
import { useShellData } from '../../shell/use-shell-data';
import { CancelSubscriptionButton } from '../cancel-subscription-dialog';
import { DatasourceDialog } from './datasource-dialog';
import { GrafanaUsersCard } from './grafana-users-card';

const QRYN_MODAL = 'add-qryn-datasource';
const STALE = 10_000;
const linkStyle = css({ color: 'accent.text', textDecoration: 'underline' });

export const NOTHING_TO_EXPORT_MESSAGE = 'There are no dashboards to export yet.';
export const NOTHING_TO_EXPORT_DESCRIPTION = 'Create dashboards for this project\'s ClickHouse clusters under Connect integrations, then export them.';

export function GrafanaView() {
  const { currentProject, readOnly, organizationId } = useShellData();
  const project = currentProject!;
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const key = (...parts: string[]) => ['grafana', project.id, ...parts];
  const config = useQuery({ queryKey: key('config'), queryFn: () => getGrafanaConfig(project.id), staleTime: STALE, retry: false });
  const datasources = useQuery({ queryKey: key('datasources'), queryFn: () => listGrafanaDatasources(project.id), staleTime: STALE, retry: false });
  const qrynSet = useQuery({ queryKey: key('qryn-datasources'), queryFn: () => getQrynDatasources(project.id), staleTime: STALE, retry: false });
  const dashboards = useQuery({ queryKey: key('dashboards'), queryFn: () => listGrafanaDashboards(project.id), staleTime: STALE, retry: false });
  const users = useQuery({ queryKey: key('users'), queryFn: () => listGrafanaUsers(project.id), staleTime: STALE, retry: false });
  const members = useQuery({ queryKey: ['projects', project.id, 'users'], queryFn: () => listProjectUsers(project.id), staleTime: STALE, retry: false, enabled: !readOnly && organizationId !== null });
  // Clusters are asked for only when the project has ClickHouse: without it the call answers 400, which was reported
  // as a data error on every load.
  const integrations = useQuery(queries.integrations(project.id));
  const hasClickhouse = (integrations.data ?? []).some((i) => i.product.slug === 'clickhouse');
  const clusters = useQuery({ queryKey: ['clickhouse', project.id, 'clusters'], queryFn: () => listClusters(project.id), staleTime: STALE, retry: false, enabled: hasClickhouse });
  const usable = (clusters.data ?? []).filter((c) => c.status === 'active' || c.status === 'external');
  const refresh = (...parts: string[]) => Promise.all(parts.map((part) => queryClient.invalidateQueries({ queryKey: key(part) })));

  const qrynModal = useActorRef(
    grafanaDatasourceMachine.provide({
      actors: { createDatasource: fromPromise<{ message: string }, { form: DatasourceForm }>(({ input }) => createGrafanaDatasource(project.id, input.form)) },
      actions: { notifyCreated: (_, params) => toast.success(params.message), refreshDatasources: () => void refresh('datasources', 'qryn-datasources') },
    }),
  );
  const clickhouseModal = useActorRef(
    grafanaDatasourceMachine.provide({
      actors: { createDatasource: fromPromise<{ message: string }, { form: DatasourceForm }>(({ input }) => createGrafanaDatasource(project.id, input.form)) },
      actions: { notifyCreated: (_, params) => toast.success(params.message), refreshDatasources: () => void refresh('datasources') },
    }),
  );
  const usersActor = useActorRef(
    grafanaUsersMachine.provide({
      actors: { addUsers: fromPromise<{ message: string }, { users: GrafanaCandidate[] }>(({ input }) => addGrafanaUsers(project.id, input.users)) },
      actions: { notifyAdded: (_, params) => toast.success(params.message), refreshUsers: () => void refresh('users') },
    }),
  );

  // The modal follows the address: ?modal=add-qryn-datasource opens it, closing it removes the parameter.
  const qrynOpen = useSelector(qrynModal, (s) => !s.matches('closed'));
  const wantsQryn = searchParams.get('modal') === QRYN_MODAL;
  useEffect(() => {
    if (wantsQryn && !qrynOpen && !readOnly) {
      qrynModal.send({
        type: 'datasource.open',
        form: { type: 'qryn', loki_name: qrynDatasourceName('loki', project.name), prometheus_name: qrynDatasourceName('prometheus', project.name), tempo_name: qrynDatasourceName('tempo', project.name) },
      });
    }
  }, [wantsQryn]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!qrynOpen && wantsQryn) {
      const next = new URLSearchParams(searchParams);
      next.delete('modal');
      setSearchParams(next, { replace: true });
    }
  }, [qrynOpen]); // eslint-disable-line react-hooks/exhaustive-deps

  const [chosen, setChosen] = useState<number[]>([]);
  const [dashboardsError, setDashboardsError] = useState<string | null>(null);
  const createDashboards = useMutation({
    mutationFn: () => createGrafanaDashboards(project.id, chosen),
    onSuccess: async (response) => {
      toast.success(response.message);
      setChosen([]);
      await refresh('dashboards');
    },
    onError: (error) => setDashboardsError((error as { details?: Record<string, string[]> }).details?.product_clickhouse_clusters?.join(' ') ?? (error as { description?: string }).description ?? error.message),
  });
  const exportZip = useMutation({
    mutationFn: () => exportGrafanaDashboards(project.id),
    onSuccess: ({ blob, filename }) => {
      saveBlob(blob, filename);
      toast.success(EXPORT_SUCCESS_MESSAGE);
    },
    onError: (error) => toast.error(error.message === EXPORT_FAILED_MESSAGE ? EXPORT_FAILED_MESSAGE : error.message || EXPORT_FAILED_MESSAGE),
  });
  // The switch moves at once; a refusal puts it back (spec 001 §4: optimistic toggles).
  const autoAdd = useMutation({
    mutationFn: (enabled: boolean) => setGrafanaAutoAdd(project.id, enabled),
    onMutate: async (enabled) => {
      await queryClient.cancelQueries({ queryKey: key('config') });
      const previous = queryClient.getQueryData(key('config'));
      queryClient.setQueryData(key('config'), (old: typeof config.data) => (old ? { ...old, autoAddUsers: enabled } : old));
      return { previous };
    },
    onError: (error, _enabled, context) => {
      queryClient.setQueryData(key('config'), context?.previous);
      toast.error((error as { description?: string }).description ?? error.message);
    },
    onSuccess: async (response) => {
      toast.success(response.message);
      await refresh('users');
    },
  });

  if (config.isError) {
    return (
      <Alert status="error" title="We had some issues loading the configuration of the Grafana integration">
        {(config.error as { description?: string }).description ?? 'Please reload the page. If it keeps happening, contact support.'}
      </Alert>
    );
  }
  if (!config.data) return <Spinner size="lg" label="Loading Grafana" />;

  const listed = new Set((users.data ?? []).map((u) => u.userId));
  const candidates: GrafanaCandidate[] = (members.data ?? [])
    .filter((m) => !listed.has(m.id))
    .map((m) => ({ id: m.id, email: m.email, name: `${m.givenName} ${m.familyName}`.trim() || m.email }));
  const withDatasource = new Set((datasources.data ?? []).map((d) => d.clusterId).filter((id) => id !== null));

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header>
        <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>Grafana</h1>
        <p className={css({ color: 'fg.muted' })}>Dashboards and datasources for this project's qryn instance and ClickHouse clusters.</p>
      </header>

      <Card title="Connect integrations">
        <details open className={css({ '& > summary': { cursor: 'pointer', fontWeight: 'medium', py: '2' } })}>
          <summary>qryn: logs, metrics and traces</summary>
          {qrynSet.data ? (
            <ul aria-label="qryn datasources" className={css({ display: 'flex', flexDirection: 'column', gap: '1', py: '2' })}>
              <li>Loki: {qrynSet.data.qrynLokiName}</li>
              <li>Prometheus: {qrynSet.data.promName}</li>
              <li>Tempo: {qrynSet.data.tempoName}</li>
            </ul>
          ) : (
            <div className={css({ display: 'flex', gap: '3', alignItems: 'center', py: '2', flexWrap: 'wrap' })}>
              <p className={css({ color: 'fg.muted' })}>Add Loki, Prometheus and Tempo datasources pointed at this project's qryn instance.</p>
              {!readOnly && (
                <Button onClick={() => setSearchParams({ modal: QRYN_MODAL })}>Add qryn datasources</Button>
              )}
            </div>
          )}
        </details>
        <details open className={css({ '& > summary': { cursor: 'pointer', fontWeight: 'medium', py: '2' } })}>
          <summary>ClickHouse clusters</summary>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', py: '2' })}>
            <ul aria-label="ClickHouse datasources" className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
              {(datasources.data ?? [])
                .filter((d) => d.clusterId !== null)
                .map((d) => (
                  <li key={d.uid}>{d.name}</li>
                ))}
            </ul>
            {usable.length === 0 ? (
              <p className={css({ color: 'fg.muted' })}>This project has no active ClickHouse cluster.</p>
            ) : (
              !readOnly && (
                <div>
                  <Button
                    variant="outline"
                    onClick={() => {
                      const first = usable.find((c) => !withDatasource.has(c.id)) ?? usable[0];
                      clickhouseModal.send({ type: 'datasource.open', form: { type: 'clickhouse', cluster_id: first.id, name: clickhouseDatasourceName(project.name, first.name) } });
                    }}
                  >
                    Add ClickHouse datasource
                  </Button>
                </div>
              )
            )}
          </div>
        </details>
        <details open className={css({ '& > summary': { cursor: 'pointer', fontWeight: 'medium', py: '2' } })}>
          <summary>Dashboards</summary>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', py: '2' })}>
            {dashboards.data?.length === 0 && <p className={css({ color: 'fg.muted' })}>No dashboards yet.{usable.length > 0 && !readOnly ? ' Choose clusters below to create them.' : ''}</p>}
            <ul aria-label="Dashboards" className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
              {(dashboards.data ?? []).map((d) =>
                d.url ? (
                  <li key={d.uid}>
                    <a className={linkStyle} href={d.url} target="_blank" rel="noreferrer">
                      {d.title}
                    </a>
                  </li>
                ) : (
                  <li key={d.uid}>{d.title}</li>
                ),
              )}
            </ul>
            {!readOnly && usable.length > 0 && (
              <form
                aria-label="Create dashboards"
                noValidate
                className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
                onSubmit={(event) => {
                  event.preventDefault();
                  setDashboardsError(null);
                  if (chosen.length === 0) setDashboardsError(SELECT_CLUSTERS_MESSAGE);
                  else createDashboards.mutate();
                }}
              >
                <fieldset className={css({ border: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: '2' })}>
                  <legend className={css({ mb: '2', color: 'fg.muted' })}>Dashboards for the chosen clusters (each needs its ClickHouse datasource):</legend>
                  {usable.map((cluster) => (
                    <Checkbox
                      key={cluster.id}
                      checked={chosen.includes(cluster.id)}
                      disabled={createDashboards.isPending}
                      onCheckedChange={(checked) => setChosen((list) => (checked ? [...list, cluster.id] : list.filter((id) => id !== cluster.id)))}
                    >
                      {cluster.name}
                    </Checkbox>
                  ))}
                </fieldset>
                {dashboardsError && <Alert status="error">{dashboardsError}</Alert>}
                <div>
                  <Button type="submit" variant="outline" loading={createDashboards.isPending}>
                    Create dashboards
                  </Button>
                </div>
              </form>
            )}
          </div>
        </details>
      </Card>

      <Card title="How to use Grafana" description="Explore the project's logs with the Loki datasource, its metrics with Prometheus and its traces with Tempo; the ClickHouse dashboards show each cluster's tables and queries.">
        <a className={linkStyle} href={GRAFANA_DOCS_URL} target="_blank" rel="noreferrer">
          Read the Grafana documentation
        </a>
      </Card>

      <Card title="Links">
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
          {config.data.grafanaUrl ? (
            <a className={linkStyle} href={config.data.grafanaUrl} target="_blank" rel="noreferrer">
              Launch Grafana
            </a>
          ) : (
            <span className={css({ color: 'fg.muted' })} title="This platform keeps Grafana's configuration itself (no Grafana is connected).">
              Launch Grafana: no Grafana is connected to this platform
            </span>
          )}
          <Button
            variant="outline"
            loading={exportZip.isPending}
            onClick={() => {
              // An export of nothing is an empty zip: say so, and where dashboards are made, instead.
              if (dashboards.data && dashboards.data.length === 0) toast.info(NOTHING_TO_EXPORT_MESSAGE, NOTHING_TO_EXPORT_DESCRIPTION);
              else exportZip.mutate();
            }}
          >
            Export Dashboards
          </Button>
          {!readOnly && <CancelSubscriptionButton productSlug="grafana" productName="Grafana" projectId={project.id} projectSlug={project.slug} />}
        </div>
      </Card>

      {!readOnly &&
        (organizationId === null ? (
          <Card title="Manage users from Grafana">
            <Alert status="info">
              {ORGANIZATION_MODE_MESSAGE}{' '}
              <Link className={linkStyle} to="/organization/create">
                Create an organization
              </Link>
            </Alert>
          </Card>
        ) : (
          <GrafanaUsersCard actor={usersActor} users={users.data ?? []} candidates={candidates} autoAdd={config.data.autoAddUsers} onAutoAddChange={(enabled) => autoAdd.mutate(enabled)} />
        ))}

      <DatasourceDialog actor={qrynModal} projectName={project.name} />
      <DatasourceDialog actor={clickhouseModal} projectName={project.name} clusters={usable} />
    </div>
  );
}
