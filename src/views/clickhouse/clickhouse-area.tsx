// /{projectSlug}/stack/clickhouse/* (spec 001 §2 ClickHouse): the index redirects to the first non-deleting cluster or
// to /create; cluster/{clusterId} shows one cluster with the nav of the project's clusters and a new-cluster button.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { Link, Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { diskLevel, formatBytes, isValidIpEntry, ClusterMessage } from '../../../contract/clickhouse';
import { projectIdFromSlug } from '../../../contract/projects';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { clusterLifecycleMachine } from '../../machines/cluster-lifecycle/cluster-lifecycle.machine';
import { deleteCluster, getCluster, listClusters, updateIpSafeList, type Cluster } from '../../services/clickhouse';
import { toast } from '../../services/toast-store';
import { ClusterLifecycleView } from './cluster-lifecycle-view';
import { ClusterMetricsCard, clusterMetricsQuery } from './cluster-metrics-card';
import { CreateClusterView } from './create-cluster-view';
import { CancelSubscriptionButton, cancelDescription } from '../stack/cancel-subscription-dialog';
import { useShellData } from '../shell/use-shell-data';
import { css } from 'styled-system/css';

const STALE_MS = 10_000;

function useProjectId(): number {
  return projectIdFromSlug(useParams().projectSlug ?? '') ?? 0;
}

function useClusters(projectId: number) {
  return useQuery({ queryKey: ['clickhouse', 'clusters', projectId], queryFn: () => listClusters(projectId), staleTime: STALE_MS, retry: false });
}

function ClickhouseIndex({ readOnly }: { readOnly: boolean }) {
  const projectId = useProjectId();
  const clusters = useClusters(projectId);
  if (clusters.isLoading) return <Spinner label="Loading the clusters" />;
  if (clusters.isError) return <Alert status="error" title="We encountered an error while fetching some data.">Please reload the page, and contact support if the problem persists.</Alert>;
  const first = (clusters.data ?? []).find((c) => c.status !== 'deleting');
  if (!first && readOnly) return <NoClustersYet />;
  return <Navigate to={first ? `cluster/${first.id}` : 'create'} replace />;
}

const navLink = css({
  display: 'inline-flex',
  alignItems: 'center',
  px: '3',
  py: '1.5',
  borderRadius: 'l2',
  color: 'fg.muted',
  fontWeight: 'medium',
  textDecoration: 'none',
  _hover: { bg: 'bg.subtle', color: 'fg.default' },
  '&[aria-current=page]': { bg: 'bg.subtle', color: 'fg.default', boxShadow: 'inset 0 -2px 0 var(--colors-accent-default)' },
});

/** The area's tabs: each cluster, New cluster and Settings (where the subscription is cancelled). */
function ClusterNav({ projectId, selected, readOnly }: { projectId: number; selected: number | 'create' | 'settings'; readOnly: boolean }) {
  const clusters = useClusters(projectId);
  const live = (clusters.data ?? []).filter((c) => c.status !== 'deleting');
  return (
    <nav aria-label="Clusters" className={css({ borderBottomWidth: '1px', borderColor: 'border.default', mb: '5', overflowX: 'auto' })}>
      <ul className={css({ display: 'flex', gap: '1', listStyle: 'none', p: '0', pb: '2', m: '0' })}>
        {live.map((c) => (
          <li key={c.id}>
            <Link className={navLink} to={`../cluster/${c.id}`} aria-current={c.id === selected ? 'page' : undefined}>
              {c.name}
            </Link>
          </li>
        ))}
        {/* Read-only members create, delete and configure nothing (spec 001 §6): no action they cannot use. */}
        {!readOnly && (
          <>
            <li>
              <Link className={navLink} to="../create" aria-current={selected === 'create' ? 'page' : undefined}>
                New cluster
              </Link>
            </li>
            <li>
              <Link className={navLink} to="../settings" aria-current={selected === 'settings' ? 'page' : undefined}>
                Settings
              </Link>
            </li>
          </>
        )}
      </ul>
    </nav>
  );
}

/** ClickHouse's product settings: the subscription, away from the create form and the clusters' own pages. */
function ClickhouseSettings() {
  const { currentProject } = useShellData();
  const projectId = useProjectId();
  return (
    <>
      <ClusterNav projectId={projectId} selected="settings" readOnly={false} />
      <Card title="Subscription" description={cancelDescription('clickhouse', 'ClickHouse')}>
        {currentProject && <CancelSubscriptionButton productSlug="clickhouse" productName="ClickHouse" projectId={currentProject.id} projectSlug={currentProject.slug} />}
      </Card>
    </>
  );
}

function CreatePage() {
  return (
    <>
      <ClusterNav projectId={useProjectId()} selected="create" readOnly={false} />
      <CreateClusterView />
    </>
  );
}

function NoClustersYet() {
  return <Alert status="info" title="This project has no ClickHouse cluster yet.">A member with write access can create one.</Alert>;
}

// Section 9: 70% free or more is good, 40-69% warn, below 40% bad.
const LEVEL_COLOUR = { good: '#16a34a', warn: '#d97706', bad: '#dc2626' } as const;

function AvailableSpace({ projectId, cluster }: { projectId: number; cluster: Cluster }) {
  const metrics = useQuery(clusterMetricsQuery(projectId, cluster.name));
  return (
    <Card title="Available space">
      {metrics.isLoading && <Spinner label="Loading the available space" />}
      {metrics.isError && <Alert status="error">We encountered an error while fetching some data.</Alert>}
      {metrics.data && (
        <>
          <p>
            {metrics.data.totalTables} table(s), {metrics.data.totalRows} row(s)
          </p>
          {metrics.data.disks.length === 0 && <p>No disk measurements for this cluster.</p>}
          <ul>
            {metrics.data.disks.map((disk) => {
              const level = diskLevel(disk.freeSpace, disk.totalSpace);
              const percent = disk.totalSpace > 0 ? Math.round((disk.freeSpace / disk.totalSpace) * 100) : 0;
              return (
                <li key={disk.host}>
                  {disk.host}: {formatBytes(disk.freeSpace)} free of {formatBytes(disk.totalSpace)}
                  <span
                    role="meter"
                    aria-label={`Free space on ${disk.host}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    aria-valuetext={`${percent}% free (${level})`}
                    data-level={level}
                    style={{ display: 'inline-block', width: '8rem', height: '0.6rem', marginLeft: '0.5rem', background: '#9ca3af', borderRadius: '3px', overflow: 'hidden', verticalAlign: 'middle' }}
                  >
                    <span style={{ display: 'block', width: `${percent}%`, height: '100%', background: LEVEL_COLOUR[level] }} />
                  </span>{' '}
                  {percent}% free
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Card>
  );
}

function ConfigCard({ projectId, cluster, readOnly }: { projectId: number; cluster: Cluster; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(cluster.ipSafeList.join(', '));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const entries = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (!entries.every(isValidIpEntry)) return setError(ClusterMessage.ipSafeList);
    setError(null);
    setSaving(true);
    try {
      const result = await updateIpSafeList(projectId, cluster.id, entries);
      toast.success(result.message);
      await queryClient.invalidateQueries({ queryKey: ['clickhouse', 'clusters', projectId] });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  if (readOnly) {
    return (
      <Card title="Configuration">
        <p>IP safe list: {cluster.ipSafeList.length > 0 ? cluster.ipSafeList.join(', ') : 'every address is allowed'}</p>
      </Card>
    );
  }
  return (
    <Card title="Configuration">
      <Field label="IP safe list" helperText="Comma-separated IPv4 addresses with an optional /0-32. Empty allows every address." errorText={error ?? undefined}>
        <Input value={text} onChange={(e) => setText(e.target.value)} disabled={cluster.status !== 'active'} />
      </Field>
      <Button onClick={save} loading={saving} disabled={cluster.status !== 'active'}>
        Save IP safe list
      </Button>
    </Card>
  );
}

function ClusterPage({ readOnly }: { readOnly: boolean }) {
  const projectId = useProjectId();
  const clusterId = Number(useParams().clusterId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return <ClusterPageBody key={clusterId} readOnly={readOnly} projectId={projectId} clusterId={clusterId} onGone={() => navigate('..', { replace: true })} invalidate={() => queryClient.invalidateQueries({ queryKey: ['clickhouse'] })} />;
}

function ClusterPageBody({ projectId, clusterId, readOnly, onGone, invalidate }: { projectId: number; clusterId: number; readOnly: boolean; onGone: () => void; invalidate: () => void }) {
  const clusters = useClusters(projectId);
  const cluster = clusters.data?.find((c) => c.id === clusterId);
  const queryClient = useQueryClient();
  const actor = useActorRef(
    clusterLifecycleMachine.provide({
      actors: {
        readCluster: fromPromise(() => getCluster(projectId, clusterId)),
        deleteCluster: fromPromise(({ input }: { input: { clusterId: number } }) => deleteCluster(projectId, input.clusterId)),
      },
      actions: {
        notifyDeleteRequested: (_, params) => {
          toast.success(params.message);
          invalidate();
        },
      },
    }),
  );
  // The lifecycle machine follows the server's status (it polls while creating); the cards follow it too, so they
  // appear as soon as the cluster turns active, and the clusters list is read again when the status changes.
  const followed = useSelector(actor, (state) => state.context.cluster);
  // Once the cluster is gone its cards stop: the list read before the delete still names it, and its metrics calls
  // answered 404 to the error reporter every refresh.
  const gone = useSelector(actor, (state) => state.matches('gone'));
  const shown = gone ? undefined : (followed ?? cluster);
  const status = shown?.status;
  useEffect(() => {
    if (status) void queryClient.invalidateQueries({ queryKey: ['clickhouse', 'clusters', projectId] });
  }, [status, projectId, queryClient]);
  return (
    <section aria-label="ClickHouse cluster">
      <ClusterNav projectId={projectId} selected={clusterId} readOnly={readOnly} />
      <ClusterLifecycleView actor={actor} readOnly={readOnly} />
      <GoneLink actor={actor} onGone={onGone} />
      {shown && (shown.status === 'active' || shown.status === 'external') && <AvailableSpace projectId={projectId} cluster={shown} />}
      {shown && (shown.status === 'active' || shown.status === 'external') && <ClusterMetricsCard projectId={projectId} cluster={shown} />}
      {shown && !shown.isExternal && <ConfigCard key={shown.status} projectId={projectId} cluster={shown} readOnly={readOnly} />}
    </section>
  );
}

function GoneLink({ actor, onGone }: { actor: ActorRefFrom<typeof clusterLifecycleMachine>; onGone: () => void }) {
  const gone = useSelector(actor, (s) => s.matches('gone'));
  return gone ? <Button onClick={onGone}>Back to the clusters</Button> : null;
}

export function ClickhouseArea() {
  const { readOnly } = useShellData();
  return (
    <>
      <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold', mb: '4' })}>ClickHouse</h1>
      <Routes>
        <Route index element={<ClickhouseIndex readOnly={readOnly} />} />
        <Route path="create" element={readOnly ? <Navigate to=".." replace /> : <CreatePage />} />
        {/* Read-only members do not cancel subscriptions (spec 001 §6). */}
        <Route path="settings" element={readOnly ? <Navigate to=".." replace /> : <ClickhouseSettings />} />
        <Route path="cluster/:clusterId" element={<ClusterPage readOnly={readOnly} />} />
      </Routes>
    </>
  );
}
