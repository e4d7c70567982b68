// /{projectSlug}/stack/hepic/* (spec 001 §2 Hepic): Overview (.), Data Ingestion (data-ingestion/agents--heplify),
// Auth (auth) and Config (config). Read-only members see only the Overview, without the manage card (spec §6).
// The page's forms post their intents to /{projectSlug}/stack/hepic (hepic-actions.ts).
import { useState } from 'react';
import { Link, NavLink, Navigate, Route, Routes, useParams } from 'react-router';
import { css } from 'styled-system/css';
import { LAUNCH_DISABLED_MESSAGE, STATISTICS_UNAVAILABLE_MESSAGE, configLoadErrorMessage } from '../../../../contract/hepic';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonStyles } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Field, Input } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { Tooltip } from '../../../components/ui/tooltip';
import { formatBytes, formatDate, formatNumber } from '../../../lib/format';
import type { HepicConfigData, HepicStatisticsData } from '../../../services/hepic';
import { useShellData } from '../../shell/use-shell-data';
import { CancelSubscriptionButton } from '../cancel-subscription-dialog';
import { agentExamples, agentOfPath } from './hepic-agents';
import { HepicAuthPage } from './hepic-auth';
import { HepicIngestKey } from './hepic-ingest-key';
import { ReadOnlyCopy } from './hepic-read-only-copy';
import { HepicConfigPage } from './hepic-config';
import { useHepicConfig, useHepicStatistics, useHepicUsers } from './use-hepic';

export const HEPIC_DOCS_URL = 'https://github.com/sipcapture/homer/wiki';
/** What the agent examples show in place of the key, which is shown only once (docs/hepic.md, "Keys"). */
export const TOKEN_PLACEHOLDER = '<your-hepic-token>';
const hepicBase = (projectSlug: string) => `/${projectSlug}/stack/hepic`;

export function HepicArea() {
  const { currentProject, readOnly } = useShellData();
  const projectId = currentProject!.id;
  const config = useHepicConfig(projectId);
  if (config.isPending) return <Spinner size="lg" label="Loading Hepic" />;
  if (config.isError) {
    return (
      <Alert status="error" title={configLoadErrorMessage(projectId)}>
        Please reload the page, and contact support if the problem persists. <Link to={`/${currentProject!.slug}/stack`}>Go to the stack page</Link>
      </Alert>
    );
  }
  // Absolute links: relative ones would resolve against the splat of this area's route.
  const base = hepicBase(currentProject!.slug);
  const tabs = readOnly
    ? [{ to: base, label: 'Overview', end: true }]
    : [
        { to: base, label: 'Overview', end: true },
        { to: `${base}/data-ingestion/agents--heplify`, label: 'Data Ingestion', end: false },
        { to: `${base}/auth`, label: 'Auth', end: false },
        { to: `${base}/config`, label: 'Config', end: false },
      ];
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <header className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
        <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>Hepic</h1>
        {/* Read-only members do not see Hepic's cancel (spec 001 §6). */}
        {!readOnly && <CancelSubscriptionButton productSlug="hepic" productName="Hepic" projectId={projectId} projectSlug={currentProject!.slug} />}
      </header>
      <nav aria-label="Hepic">
        <ul className={css({ display: 'flex', gap: '4', listStyle: 'none', p: 0, borderBottomWidth: '1px', borderColor: 'border' })}>
          {tabs.map((tab) => (
            <li key={tab.label}>
              <NavLink to={tab.to} end={tab.end} className={({ isActive }) => css({ display: 'inline-block', pb: '2', fontWeight: isActive ? 'semibold' : 'normal', borderBottomWidth: isActive ? '2px' : '0', borderColor: 'colorPalette.solid' })}>
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route index element={<HepicOverview config={config.data} readOnly={readOnly} base={base} />} />
        {!readOnly && <Route path="data-ingestion/:method" element={<HepicDataIngestion config={config.data} base={base} />} />}
        {!readOnly && <Route path="data-ingestion" element={<Navigate to={`${base}/data-ingestion/agents--heplify`} replace />} />}
        {!readOnly && <Route path="auth" element={<HepicAuthPage projectId={projectId} />} />}
        {!readOnly && <Route path="config" element={<HepicConfigPage projectId={projectId} config={config.data} />} />}
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
    </div>
  );
}

function HepicOverview({ config, readOnly, base }: { config: HepicConfigData; readOnly: boolean; base: string }) {
  const statistics = useHepicStatistics(config.projectId);
  const users = useHepicUsers(config.projectId, !readOnly);
  // Launch is disabled only when nobody is listed (spec 001 §2): the person who enabled Hepic is listed as its
  // superadmin and may launch it alone, which is also the only way in a personal project, where no users are added.
  const noUsers = users.isSuccess && users.data.length === 0;
  return (
    <div className={css({ display: 'grid', gap: '5', gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' } })}>
      <Card title="Statistics">
        {statistics.isPending && <Spinner label="Loading the statistics" />}
        {statistics.isError && <Alert status="error">{STATISTICS_UNAVAILABLE_MESSAGE}</Alert>}
        {statistics.data && <StatisticsList statistics={statistics.data} />}
      </Card>
      {!readOnly && (
        <Card title="Manage your hepic instance">
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
            {noUsers ? (
              <Tooltip content={LAUNCH_DISABLED_MESSAGE}>
                <span tabIndex={0} aria-label={`Launch hepic: ${LAUNCH_DISABLED_MESSAGE}`}>
                  <Button disabled>Launch hepic</Button>
                </span>
              </Tooltip>
            ) : (
              <a className={buttonStyles()} href={config.url} target="_blank" rel="noreferrer">
                Launch hepic
              </a>
            )}
            <Link to={`${base}/data-ingestion/agents--heplify`}>Data ingestion</Link>
            <Link to={`${base}/config`}>Config</Link>
            <a href={HEPIC_DOCS_URL} target="_blank" rel="noreferrer">
              Hepic documentation
            </a>
            <Field label="Application URL" readOnly>
              <Input value={config.url} readOnly />
            </Field>
            <CopyButton value={config.url} label="Copy the application URL" />
          </div>
        </Card>
      )}
    </div>
  );
}

/** With a quota: Storage Quota, Ingested and Rotation Point; without one: Stored and Usage percent (spec §2). */
export function StatisticsList({ statistics }: { statistics: HepicStatisticsData }) {
  const rotation = statistics.rotationPointSec === null ? 'No data stored yet' : formatDate(statistics.rotationPointSec * 1000);
  const percent = statistics.storageUsagePercentage === null ? 'Not measured' : `${statistics.storageUsagePercentage < 0.01 && statistics.storageUsagePercentage > 0 ? '< 0.01' : statistics.storageUsagePercentage.toFixed(2)} %`;
  const rows: [string, string][] =
    statistics.storageQuota !== null
      ? [
          ['Storage Quota', formatBytes(statistics.storageQuota)],
          ['Ingested', `${formatBytes(statistics.storageUsageBytes)} (${percent})`],
          ['Rotation Point', rotation],
        ]
      : [
          ['Stored', formatBytes(statistics.storageUsageBytes)],
          ['Usage percent', percent],
        ];
  rows.push(['Packets', formatNumber(statistics.packets)]);
  rows.push(['Dropped', formatNumber(statistics.shedPackets + statistics.failedPackets)]);
  if (statistics.queuedPackets > 0) rows.push(['Waiting to be stored', formatNumber(statistics.queuedPackets)]);
  const dropped = statistics.shedPackets + statistics.failedPackets;
  return (
    <>
    {dropped > 0 && (
      <Alert status="warning">
        {`${formatNumber(dropped)} packets of this instance were dropped since the platform started: `}
        {statistics.shedPackets > 0 && `${formatNumber(statistics.shedPackets)} because its storage could not keep up with the senders`}
        {statistics.shedPackets > 0 && statistics.failedPackets > 0 && ', '}
        {statistics.failedPackets > 0 && `${formatNumber(statistics.failedPackets)} refused by the storage`}
        {'. Other instances are not affected.'}
      </Alert>
    )}
    <dl className={css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '6', rowGap: '2' })}>
      {rows.map(([label, value]) => (
        <div key={label} className={css({ display: 'contents' })}>
          <dt className={css({ color: 'fg.muted' })}>{label}</dt>
          <dd data-testid={`statistic-${label}`}>{value}</dd>
        </div>
      ))}
    </dl>
    </>
  );
}

function HepicDataIngestion({ config, base }: { config: HepicConfigData; base: string }) {
  const method = agentOfPath(useParams().method);
  // The key is not readable after enable (only its hash is kept): the examples carry a placeholder, or the new key
  // right after a rotation.
  const [revealed, setRevealed] = useState<string | null>(null);
  const examples = agentExamples(config.ingressUrl, revealed ?? TOKEN_PLACEHOLDER);
  const example = examples.find((e) => e.agent === method);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <Card title="Send HEP to this instance">
        <p>
          Capture agents send SIP and other VoIP signalling encapsulated in HEP v3 to the HEP Endpoint, over UDP or TCP on the same port. Every packet carries the Token
          (the HEP auth key): packets without it, or with an expired scoped token, are dropped.
        </p>
        <div className={css({ display: 'grid', gap: '3', mt: '3' })}>
          <ReadOnlyCopy label="HEP Endpoint" value={config.ingressUrl} />
          <HepicIngestKey projectId={config.projectId} hint={config.apiKeyHint} onRevealed={setRevealed} />
        </div>
      </Card>
      <nav aria-label="Agents">
        <ul className={css({ display: 'flex', gap: '4', listStyle: 'none', p: 0 })}>
          {examples.map((e) => (
            <li key={e.agent}>
              <NavLink to={`${base}/data-ingestion/agents--${e.agent}`}>{e.title}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {example ? (
        <Card title={example.title}>
          <p>{example.intro}</p>
          <pre className={css({ mt: '3', p: '3', bg: 'bg.subtle', borderRadius: 'l2', overflowX: 'auto', fontSize: 'sm' })}>
            <code data-language={example.language}>{example.code}</code>
          </pre>
          <CopyButton value={example.code} label={`Copy the ${example.title} example`} />
        </Card>
      ) : (
        <Alert status="error" title="Invalid ingestion method.">
          Please select a different method from the list above
        </Alert>
      )}
    </div>
  );
}

