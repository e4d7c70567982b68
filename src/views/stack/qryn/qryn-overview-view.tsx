// qryn's Overview (spec 001 §2 qryn Overview): the Ingestion Stats card in its two layouts, the fingerprints-limit
// banner, and for members who may change things the snippet tabs, the side card (Docs, qryn View, 'Your qryn
// Instance'), Rotate API keys and Cancel subscription.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import { css } from 'styled-system/css';
import { fromPromise } from 'xstate';
import { useId } from 'react';
import { Link } from 'react-router';
import { FINGERPRINT_LIMIT_REACHED_MESSAGE, STATS_UNAVAILABLE_MESSAGE } from '../../../../contract/qryn';
import { SHELL_EXAMPLES } from '../../../../contract/qryn-examples';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Identifier } from '../../../components/ui/identifier';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { settings } from '../../../config/settings';
import { formatBytes, formatDate, formatNumber } from '../../../lib/format';
import { qrynKeyRotationMachine } from '../../../machines/qryn-key-rotation/qryn-key-rotation.machine';
import { rotateQrynKeys, type QrynConfigData, type QrynMetricsData } from '../../../services/qryn';
import { toast } from '../../../services/toast-store';
import { useShellData } from '../../shell/use-shell-data';
import { CancelSubscriptionButton } from '../cancel-subscription-dialog';
import { RotateKeysDialog } from './qryn-dialogs';
import { qrynQueries, SECRET_PLACEHOLDER } from './qryn-queries';
import { CodeBlock } from './code-block';
import { SimpleTable } from './simple-table';

// A labelled group per figure: a <dl> may not hold groups (axe), and the group is what names the figure.
function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div role="group" aria-label={label} className={css({ display: 'flex', flexDirection: 'column', gap: '1', minW: '32' })}>
      <span className={css({ color: 'fg.muted', textStyle: 'sm' })}>{label}</span>
      <span className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>{value}</span>
    </div>
  );
}

const percent = (part: number, total: number) => (total > 0 ? `${formatNumber(Math.round((part / total) * 1000) / 10)}%` : '0%');

/** What the gateway refused of this instance (docs/qryn.md, Limits), shown only when something was. */
export function Refusals({ metrics }: { metrics: QrynMetricsData }) {
  const parts = [
    metrics.refusedBusy > 0 && `${formatNumber(metrics.refusedBusy)} pushes while too much of this instance's data was being written (answered 429 or 503; clients retry)`,
    metrics.refusedOverLimit > 0 &&
      `${formatNumber(metrics.refusedOverLimit)} pushes over the limits (at most ${formatNumber(metrics.seriesPerPushLimit)} series per push and ${formatNumber(metrics.samplesPerSecondLimit)} lines or samples per second)`,
    metrics.refusedSignIns > 0 && `${formatNumber(metrics.refusedSignIns)} sign-ins after too many failed ones`,
    metrics.refusedOverQuota > 0 && `${formatNumber(metrics.refusedOverQuota)} pushes over the storage quota`,
  ].filter((part): part is string => Boolean(part));
  if (parts.length === 0) return null;
  return (
    <Alert status="warning" title="Refused since the platform started">
      <ul>
        {parts.map((part) => (
          <li key={part}>{part}</li>
        ))}
      </ul>
    </Alert>
  );
}

/**
 * The stored-bytes quota (docs/qryn.md, Limits), in both layouts: bytes stored of the quota, and while it is used up
 * the state that writes are refused. Nothing without a quota.
 */
export function StorageQuota({ metrics }: { metrics: QrynMetricsData }) {
  if (!metrics.sizeLimit) return null;
  const used = `${formatBytes(metrics.dataBytes)} of ${formatBytes(metrics.sizeLimit)} (${percent(Math.min(metrics.dataBytes, metrics.sizeLimit), metrics.sizeLimit)})`;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      {metrics.sizeLimitReached && (
        <Alert status="error" title="Writes are refused: the storage quota is used up">
          This instance stores {formatBytes(metrics.dataBytes)}, its quota is {formatBytes(metrics.sizeLimit)}. Pushes are answered 429 until
          retention or deletion brings it under; reads keep working.
        </Alert>
      )}
      <div role="group" aria-label="Stored of quota" className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
        <span className={css({ color: 'fg.muted', textStyle: 'sm' })}>Stored of quota: {used}</span>
        <ProgressBar label="Stored of the storage quota" max={metrics.sizeLimit} value={metrics.dataBytes} />
      </div>
    </div>
  );
}

/** The stats in the spec's two layouts: with a byte count, the four totals; otherwise quota, rotation point and per-type rows. */
export function IngestionStats({ metrics }: { metrics: QrynMetricsData }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <StorageQuota metrics={metrics} />
      <Refusals metrics={metrics} />
      <IngestionTotals metrics={metrics} />
      <ReadStats metrics={metrics} />
    </div>
  );
}

/**
 * The instance's reads (docs/qryn.md, "Reads of many instances"): running and waiting for their turn now, then
 * since the platform started what was refused (the instance's queue full), ran past its deadline, and was answered.
 */
export function ReadStats({ metrics }: { metrics: QrynMetricsData }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <h3 id={headingId} className={css({ textStyle: 'sm', fontWeight: 'semibold' })}>
        Queries
      </h3>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '6' })}>
        <Stat label="Running" value={`${formatNumber(metrics.readsRunning)} of ${formatNumber(metrics.readsRunningLimit)}`} />
        <Stat label="Waiting" value={`${formatNumber(metrics.readsQueued)} of ${formatNumber(metrics.readsQueuedLimit)}`} />
        <Stat label="Refused, too many at once" value={formatNumber(metrics.readsRefused)} />
        <Stat label="Timed out" value={formatNumber(metrics.readsTimedOut)} />
        <Stat label="Answered" value={formatBytes(metrics.readsBytesAnswered)} />
      </div>
      <p className={css({ color: 'fg.muted', textStyle: 'xs' })}>
        Running and waiting now; the others since the platform started. Past the waiting limit a query is answered 429 with Retry-After.
      </p>
    </section>
  );
}

function IngestionTotals({ metrics }: { metrics: QrynMetricsData }) {
  const statList = css({ display: 'flex', flexWrap: 'wrap', gap: '6' });
  if (metrics.bytesCount > 0) {
    return (
      <div className={statList}>
        <Stat label="Ingested" value={formatBytes(metrics.bytesCount)} />
        <Stat label="Traces" value={formatNumber(metrics.tracesCount)} />
        <Stat label="Total unique fingerprints" value={formatNumber(metrics.fingerprints)} />
        <Stat label="Metrics & logs" value={formatNumber(metrics.metricsAndLogsCount)} />
      </div>
    );
  }
  const total = metrics.logsBytes + metrics.metricsBytes + metrics.tracesBytes;
  const rows = [
    { type: 'Logs', count: metrics.logsRows, bytes: metrics.logsBytes },
    { type: 'Metrics', count: metrics.metricsRows, bytes: metrics.metricsBytes },
    { type: 'Traces', count: metrics.tracesRows, bytes: metrics.tracesBytes },
  ];
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={statList}>
        <Stat label="Rotation Point" value={metrics.rotationPoint === null ? 'No data yet' : formatDate(metrics.rotationPoint * 1000)} />
        <Stat label="Storage Quota" value={metrics.sizeLimit ? formatBytes(metrics.sizeLimit) : 'Unlimited'} />
        <Stat label="Ingested Data" value={formatBytes(metrics.dataBytes)} />
        <Stat label="Fingerprints" value={formatNumber(metrics.fingerprints)} />
      </div>
      <SimpleTable
        label="Ingested data by type"
        columns={['Type', 'Count', 'Size', 'Percent']}
        rows={rows.map((row) => ({ key: row.type, cells: [formatNumber(row.count), formatBytes(row.bytes), percent(row.bytes, total)] }))}
      />
    </div>
  );
}

function IngestionStatsCard({ projectId }: { projectId: number }) {
  const metrics = useQuery(qrynQueries.metrics(projectId));
  const queryClient = useQueryClient();
  // The banner also reads the config: refresh both.
  const refresh = () => void Promise.all([metrics.refetch(), queryClient.invalidateQueries({ queryKey: qrynQueries.config(projectId).queryKey })]);
  return (
    <Card
      title="Ingestion Stats"
      description="This month, from the first of the month (UTC)."
      headerAction={
        <Button variant="outline" size="sm" loading={metrics.isFetching} onClick={refresh}>
          Refresh
        </Button>
      }
    >
      {metrics.isPending && <Spinner label="Loading the ingestion stats" />}
      {metrics.isError && <Alert status="warning">{STATS_UNAVAILABLE_MESSAGE}</Alert>}
      {metrics.data && <IngestionStats metrics={metrics.data} />}
    </Card>
  );
}

/** Anything stored or ingested this month: the instance has received data. */
export const hasStoredData = (m: QrynMetricsData) => m.dataBytes > 0 || m.bytesCount > 0 || m.logsRows + m.metricsRows + m.tracesRows > 0 || m.metricsAndLogsCount > 0 || m.tracesCount > 0;

/**
 * The secret is shown once (enable, rotation) and stored hashed: an owner who did not keep it follows the examples
 * with a write token in its place, which the gateway takes as the password of any user name (docs/qryn.md).
 */
export function SecretHint({ projectSlug }: { projectSlug: string }) {
  return (
    <>
      Replace <code>{SECRET_PLACEHOLDER}</code> with the API secret you kept when qryn was enabled or the keys were rotated. Did not keep it?{' '}
      <Link to={`/${projectSlug}/stack/qryn/auth`} className={css({ color: 'accent.text', textDecoration: 'underline' })}>
        Create a token
      </Link>{' '}
      with the write scope and put it in the secret's place: the instance takes a token as the password of the API key.
    </>
  );
}

/** The Overview's snippet tabs: one runnable example per kind, as on the Data Ingestion pages. */
function SnippetTabs({ config, projectSlug }: { config: QrynConfigData; projectSlug: string }) {
  const input = { url: config.url, apiKey: config.apiKey ?? '', apiSecret: SECRET_PLACEHOLDER };
  const snippet = (id: string) => SHELL_EXAMPLES.find((e) => e.id === id)!;
  const items = [
    { value: 'logs', label: 'Log Ingestion', example: snippet('logs--curl'), more: 'logs--curl' },
    { value: 'metrics', label: 'Metric Ingestion', example: snippet('metrics--influx'), more: 'metrics--influx' },
    { value: 'telemetry', label: 'Telemetry Ingestion', example: snippet('telemetry--curl'), more: 'telemetry--curl' },
  ];
  return (
    <Card title="Send your first data" description={<SecretHint projectSlug={projectSlug} />}>
      <Tabs
        aria-label="Ingestion snippets"
        items={items.map((item) => ({
          value: item.value,
          label: item.label,
          content: (
            <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
              <CodeBlock title={item.example.title} text={item.example.command(input)} />
              <Link to={`/${projectSlug}/stack/qryn/data-ingestion/${item.more}`} className={css({ color: 'accent.text', textDecoration: 'underline' })}>
                More ways to send {item.value === 'telemetry' ? 'traces' : item.value}
              </Link>
            </div>
          ),
        }))}
      />
    </Card>
  );
}

function SideCard({ config, projectSlug }: { config: QrynConfigData; projectSlug: string }) {
  return (
    <Card title="qryn">
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '3', listStyle: 'none', p: '0' })}>
        <li>
          <a href={settings.docsUrl} target="_blank" rel="noreferrer" className={css({ color: 'accent.text', textDecoration: 'underline' })}>
            Docs
          </a>
        </li>
        <li>
          <Link to={`/${projectSlug}/stack/qryn/view`} className={css({ color: 'accent.text', textDecoration: 'underline' })}>
            qryn View
          </Link>
        </li>
        <li className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          <span className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>Your qryn Instance</span>
          <Identifier value={config.url} label="Your qryn Instance" copyLabel="Copy the instance URL" />
        </li>
      </ul>
    </Card>
  );
}

/** Rotate API keys with its modal (the Overview's, and the Auth Tokens page's access keys card). */
export function RotateKeys({ projectId }: { projectId: number }) {
  const queryClient = useQueryClient();
  const actor = useActorRef(
    qrynKeyRotationMachine.provide({
      actors: { rotateKeys: fromPromise(() => rotateQrynKeys(projectId)) },
      actions: {
        notifyRotated: (_, params) => toast.success(params.message),
        refreshConfig: () => void queryClient.invalidateQueries({ queryKey: ['qryn', projectId, 'config'] }),
      },
    }),
  );
  return (
    <>
      <Button variant="outline" onClick={() => actor.send({ type: 'rotation.open' })}>
        Rotate API keys
      </Button>
      <RotateKeysDialog actor={actor} />
    </>
  );
}

export function QrynOverviewView({ config }: { config: QrynConfigData }) {
  const { currentProject, readOnly } = useShellData();
  const project = currentProject!;
  // Either answer may be the newer one: the config's or this month's stats.
  const metrics = useQuery(qrynQueries.metrics(project.id));
  const limitReached = config.fingerprintLimitReached || Boolean(metrics.data?.fingerprintLimitReached);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      {limitReached && (
        <Alert status="error" title="Fingerprints limit reached">
          {FINGERPRINT_LIMIT_REACHED_MESSAGE}
        </Alert>
      )}
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: readOnly ? '1fr' : '2fr 1fr' }, gap: '6', alignItems: 'start' })}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
          <IngestionStatsCard projectId={project.id} />
          {/* The first-data snippets are onboarding: once anything is stored they give way to the stats. */}
          {!readOnly && (metrics.isError || (metrics.data && !hasStoredData(metrics.data))) && <SnippetTabs config={config} projectSlug={project.slug} />}
        </div>
        {!readOnly && (
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
            <SideCard config={config} projectSlug={project.slug} />
            <Card title="Keys and subscription">
              <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
                <RotateKeys projectId={project.id} />
                <CancelSubscriptionButton productSlug="qryn" productName="Observability" projectId={project.id} projectSlug={project.slug} />
              </div>
            </Card>
          </div>
        )}
      </div>
    </div>
  );
}
