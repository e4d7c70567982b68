// qryn's Config page (spec 001 §2 qryn Config, §4, §5, §9): the retention policy card and its 'Change your Retention
// Policy' modal (modal=open), the server-side cache and logs drilldown switches (optimistic, with their warnings and
// toasts) and the fingerprints limit card. On a trial account (no payment method) the retention and fingerprints
// cards are hidden: they are what is billed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { fromPromise } from 'xstate';
import { decodeInput } from '../../../../contract/common';
import { FINGERPRINT_LIMIT_STEP, FINGERPRINT_SPEND_STEP_USD, spendForFingerprintLimit, UpdateFingerprintLimitBody } from '../../../../contract/qryn';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input, NativeSelect } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { formatBytes, formatCents, formatDate, formatNumber, formatPrice } from '../../../lib/format';
import { confirmedChangeMachine } from '../../../machines/confirmed-change/confirmed-change.machine';
import { setQrynSwitch, updateFingerprintLimit, updateQrynRetention, type QrynConfigData } from '../../../services/qryn';
import type { RetentionPolicy } from '../../../services/stack';
import { toast } from '../../../services/toast-store';
import { useShellData } from '../../shell/use-shell-data';
import { retentionLabel } from '../enable-product-dialog';
import { ConfirmChangeDialog } from '../../confirm-change/confirm-change-dialog';
import { qrynQueries } from './qryn-queries';
import { InstrumentationCard } from './qryn-instrumentation-card';
import { SimpleTable } from './simple-table';
import { subjectBeside } from '../../../lib/url-state';
import { useUrlDialog } from '../../url-state/use-url-state';

export const CACHE_WARNING = (on: boolean) =>
  on
    ? 'The server-side cache is on: label and series lookups of every client of this instance may be up to 30 seconds old. Turning it off disables it on the server side.'
    : 'Turning this on enables the cache on the server side for every client of this instance: label and series lookups are answered from a cache kept for 30 seconds.';
export const DRILLDOWN_WARNING = (on: boolean) =>
  on
    ? "Logs drilldown is on: the server answers Loki's index volume call. Turning it off disables it on the server side for every client."
    : "Turning this on enables logs drilldown on the server side: the instance answers Loki's index volume call (log volume per stream) for every client.";

/** A tier of a retention plan: GB from–to, price in cents per GB shown divided by 100. */
export const tierText = (tier: RetentionPolicy['tiers'][number]) =>
  `${formatNumber(tier.startingUnit)}${tier.endingUnit === null ? '+' : `–${formatNumber(tier.endingUnit)}`} GB: ${formatCents(tier.price)} per GB`;

// The retention change's address (spec 001 §2 qryn): ?modal=open&plan={id}.
const RETENTION_ADDRESS = subjectBeside('modal', 'open', 'plan');

function RetentionCard({ config, projectId }: { config: QrynConfigData; projectId: number }) {
  const queryClient = useQueryClient();
  const policies = useQuery(qrynQueries.retentionPolicies());
  const actor = useActorRef(
    confirmedChangeMachine.provide({
      actors: { applyChange: fromPromise(({ input }) => updateQrynRetention(projectId, input.id)) },
      actions: {
        notifyApplied: (_, params) => toast.success(params.message),
        refresh: () => void queryClient.invalidateQueries({ queryKey: ['qryn', projectId] }),
      },
    }),
  );
  const closed = useSelector(actor, (s) => s.matches('closed'));
  const chosenId = useSelector(actor, (s) => s.context.subject?.id ?? null);
  const find = (id: string | null) => policies.data?.find((p) => p.id === id);
  // Choosing the plan already in place (or one not offered) clears the address instead of leaving it asking.
  const openChange = useUrlDialog({
    address: RETENTION_ADDRESS,
    ready: policies.isSuccess,
    dialogOpen: !closed,
    open: (id) => {
      const plan = find(id);
      if (!plan || plan.id === config.ttlAddonId) return false;
      actor.send({ type: 'change.open', subject: { id: plan.id, label: retentionLabel(plan.name) } });
      return true;
    },
  });
  const chosen = find(chosenId);
  return (
    <Card title="Retention policy" description="How long the data is kept; older days are dropped by a job every hour.">
      {policies.isPending && <Spinner label="Loading the retention plans" />}
      {policies.isError && <Alert status="error">We encountered an error while fetching some data.</Alert>}
      {policies.data && (
        <Field label="Current Retention Plan">
          <NativeSelect value={config.ttlAddonId} onChange={(e) => openChange(e.target.value)}>
            {policies.data.map((p) => (
              <option key={p.id} value={p.id}>
                {retentionLabel(p.name)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      )}
      <ConfirmChangeDialog actor={actor} title="Change your Retention Policy" confirmLabel="Confirm">
        <p>Your current Retention Policy is {config.ttlDays} days.</p>
        {chosen && (
          <>
            <p>
              {/* The plan's name usually is its length ('90 days'): the days are added only when it says something else. */}
              New plan: <strong>{retentionLabel(chosen.name)}</strong>
              {!new RegExp(`^${chosen.ttlDays} days?$`).test(retentionLabel(chosen.name)) && ` (${chosen.ttlDays} days)`}
            </p>
            <ul aria-label="Price tiers" className={css({ pl: '5', listStyle: 'disc' })}>
              {chosen.tiers.map((tier) => (
                <li key={tier.startingUnit}>{tierText(tier)}</li>
              ))}
            </ul>
          </>
        )}
      </ConfirmChangeDialog>
    </Card>
  );
}

/** An optimistic switch: it moves at once, goes back if the server refuses; the server's message is the toast. */
function ServerSwitch({ projectId, name, label, checked, warning }: { projectId: number; name: 'cache' | 'drilldown'; label: string; checked: boolean; warning: (on: boolean) => string }) {
  const queryClient = useQueryClient();
  const key = qrynQueries.config(projectId).queryKey;
  const field = name === 'cache' ? 'cacheEnabled' : 'useDrilldown';
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setQrynSwitch(projectId, name, enabled),
    onMutate: async (enabled) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      queryClient.setQueryData(key, (old) => (old ? { ...old, [field]: enabled } : old));
      return { previous };
    },
    onError: (_error, _enabled, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (response) => toast.success(response.message),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <Switch checked={checked} onCheckedChange={(next) => toggle.mutate(next)}>
        {label}
      </Switch>
      <Alert status="warning">{warning(checked)}</Alert>
    </div>
  );
}

function FingerprintsLimitCard({ config, projectId }: { config: QrynConfigData; projectId: number }) {
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(String(config.fingerprintLimit));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: number) => updateFingerprintLimit(projectId, value),
    onSuccess: (response) => {
      toast.success(response.message);
      void queryClient.invalidateQueries({ queryKey: ['qryn', projectId] });
    },
    onError: (e) => setError(((e as { details?: Record<string, string[]> }).details?.limit ?? []).join(' ') || null),
  });
  const submit = (value: number) => {
    // The same rule as the server's, first here: a multiple of 1000, not negative; 0 turns the limit off.
    const outcome = decodeInput(UpdateFingerprintLimitBody, { limit: value });
    if (!outcome.ok) return setError(Object.values(outcome.errors).flat().join(' ') || 'The limit must be a whole number.');
    setError(null);
    save.mutate(value);
  };
  const asNumber = limit.trim() === '' ? Number.NaN : Number(limit);
  const spend = Number.isFinite(asNumber) ? spendForFingerprintLimit(asNumber) : 0;
  return (
    <Card
      title="Fingerprints limit"
      description="The most distinct series (fingerprints) this instance accepts in a month; past it, new series are refused and known ones keep flowing. 0 turns the limit off."
    >
      <p>
        {config.fingerprintLimit > 0
          ? `Current limit: ${formatNumber(config.fingerprintLimit)} fingerprints a month (spend limit ${formatPrice(spendForFingerprintLimit(config.fingerprintLimit))}).`
          : 'The limit is off.'}
      </p>
      <form
        aria-label="Fingerprints limit"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit(asNumber);
        }}
        className={css({ display: 'flex', gap: '4', flexWrap: 'wrap', alignItems: 'flex-end' })}
      >
        <Field label="Fingerprints limit" errorText={error ?? undefined} disabled={save.isPending}>
          <Input type="number" min={0} step={FINGERPRINT_LIMIT_STEP} value={limit} onChange={(e) => setLimit(e.target.value)} />
        </Field>
        <Field label="Spend limit (USD)" helperText="The limit × 5 / 1000" disabled={save.isPending}>
          <Input
            type="number"
            min={0}
            step={FINGERPRINT_SPEND_STEP_USD}
            value={Number.isFinite(spend) ? String(spend) : ''}
            onChange={(e) => setLimit(e.target.value === '' ? '' : String((Number(e.target.value) * 1000) / 5))}
          />
        </Field>
        <Button type="submit" loading={save.isPending}>
          Save limit
        </Button>
        <Button type="button" variant="outline" disabled={save.isPending || config.fingerprintLimit === 0} onClick={() => {
          setLimit('0');
          submit(0);
        }}>
          Turn the limit off
        </Button>
      </form>
    </Card>
  );
}

const COST_TYPE_LABELS = { logs: 'Logs', metrics: 'Metrics', traces: 'Traces', index: 'Labels index' } as const;

/** This month's cost from what the store holds now (GET costs): storage by kind and tier, and the fingerprints spend. */
function CostsCard({ projectId }: { projectId: number }) {
  const costs = useQuery(qrynQueries.costs(projectId));
  return (
    <Card title="This month's cost" description="At the volume stored now: stored GB priced by your retention plan's tiers, plus the fingerprints limit's spend.">
      {costs.isPending && <Spinner label="Loading the costs" />}
      {costs.isError && <Alert status="error">{(costs.error as Error).message || 'Costs not currently available'}</Alert>}
      {costs.data && (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          <p>
            {formatDate(costs.data.periodStart * 1000)} – {formatDate(costs.data.periodEnd * 1000 - 1)}, plan {retentionLabel(costs.data.planName)}:{' '}
            <strong aria-label="Total this month">{formatCents(costs.data.totalCents)}</strong>
          </p>
          <SimpleTable
            label="Cost by kind of data"
            columns={['Data', 'Stored', 'Cost']}
            rows={[
              ...costs.data.storage.map((line) => ({ key: COST_TYPE_LABELS[line.type], cells: [formatBytes(line.bytes), formatCents(line.cents)] })),
              { key: 'Fingerprints limit', cells: [costs.data.fingerprintLimit === 0 ? 'off' : formatNumber(costs.data.fingerprintLimit), formatCents(costs.data.fingerprintCents)] },
            ]}
          />
        </div>
      )}
    </Card>
  );
}

export function QrynConfigView({ config }: { config: QrynConfigData }) {
  const projectId = useShellData().currentProject!.id;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      {config.trial && <Alert status="info">Retention plans and the fingerprints limit are offered once the account has a payment method.</Alert>}
      {!config.trial && <RetentionCard config={config} projectId={projectId} />}
      <Card title="Server-side settings">
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
          <ServerSwitch projectId={projectId} name="cache" label="Server-side cache" checked={config.cacheEnabled} warning={CACHE_WARNING} />
          <ServerSwitch projectId={projectId} name="drilldown" label="Logs drilldown" checked={config.useDrilldown} warning={DRILLDOWN_WARNING} />
        </div>
      </Card>
      {!config.trial && <FingerprintsLimitCard config={config} projectId={projectId} />}
      <CostsCard projectId={projectId} />
      <InstrumentationCard projectId={projectId} />
    </div>
  );
}
