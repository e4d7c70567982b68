// The Config page's instrumentation card (spec 001 §5: 'You must select at least one cluster to instrument.';
// docs/qryn.md "Instrumentation"): choose the project's running ClickHouse clusters whose system tables qryn scrapes
// every minute, and see each one's last scrape. The rule is the contract's, checked here first and again by the API.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { css } from 'styled-system/css';
import { decodeInput } from '../../../../contract/common';
import { InstrumentBody } from '../../../../contract/qryn';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { instrumentClusters } from '../../../services/qryn';
import { toast } from '../../../services/toast-store';
import { qrynQueries } from './qryn-queries';
import { SimpleTable } from './simple-table';

export function InstrumentationCard({ projectId }: { projectId: number }) {
  const queryClient = useQueryClient();
  const resources = useQuery(qrynQueries.cloudResources(projectId));
  const instrumented = useQuery(qrynQueries.instrumented(projectId));
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const clusters = resources.data?.filter((r) => r.kind === 'project') ?? [];
  // Until the person changes the choice, it is what is instrumented now.
  useEffect(() => {
    if (chosen === null && instrumented.data) setChosen(instrumented.data.map((a) => a.clusterId));
  }, [chosen, instrumented.data]);
  const save = useMutation({
    mutationFn: (ids: string[]) => instrumentClusters(projectId, ids),
    onSuccess: (response) => {
      toast.success(response.message);
      void queryClient.invalidateQueries({ queryKey: ['qryn', projectId, 'instrumented'] });
    },
    onError: (e) => setError(Object.values((e as { details?: Record<string, string[]> }).details ?? {}).flat().join(' ') || (e as Error).message),
  });
  const submit = () => {
    const ids = chosen ?? [];
    const outcome = decodeInput(InstrumentBody, { cluster_ids: ids });
    if (!outcome.ok) return setError(Object.values(outcome.errors).flat().join(' '));
    setError(null);
    save.mutate(ids);
  };
  const toggle = (id: string, on: boolean) => setChosen((current) => (on ? [...(current ?? []), id] : (current ?? []).filter((c) => c !== id)));
  return (
    <Card title="Instrument your ClickHouse clusters" description="qryn reads the chosen clusters' system metrics, events and asynchronous metrics every minute and stores them as metrics (clickhouse_system_metrics and the like, labelled cluster and name).">
      {(resources.isPending || instrumented.isPending) && <Spinner label="Loading the clusters" />}
      {(resources.isError || instrumented.isError) && <Alert status="error">We encountered an error while fetching some data.</Alert>}
      {resources.data && instrumented.data && (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          {clusters.length === 0 ? (
            <p>This project has no running ClickHouse cluster to instrument.</p>
          ) : (
            <form
              aria-label="Instrument clusters"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                submit();
              }}
              className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
            >
              <fieldset aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} disabled={save.isPending} className={css({ display: 'flex', flexDirection: 'column', gap: '2', border: 'none', p: '0' })}>
                <legend className={css({ fontWeight: 'semibold', mb: '2' })}>ClickHouse clusters</legend>
                {clusters.map((c) => (
                  <Checkbox key={c.clickhouseClusterId} checked={(chosen ?? []).includes(c.clickhouseClusterId)} onCheckedChange={(on) => toggle(c.clickhouseClusterId, on)} invalid={Boolean(error)}>
                    {c.name} ({c.regionName || c.regionCode})
                  </Checkbox>
                ))}
              </fieldset>
              {error && (
                <p id={errorId} className={css({ color: 'fg.error', textStyle: 'sm' })}>
                  {error}
                </p>
              )}
              <div>
                <Button type="submit" loading={save.isPending}>
                  Instrument
                </Button>
              </div>
            </form>
          )}
          {instrumented.data.length > 0 && (
            <SimpleTable
              label="Instrumented clusters"
              columns={['Cluster', 'Last scrape', 'Samples', 'Error']}
              rows={instrumented.data.map((a) => ({
                key: a.name,
                cells: [a.lastScrapeAt ? formatDateTime(a.lastScrapeAt) : 'Not yet', a.lastScrapeSamples === null ? '–' : formatNumber(a.lastScrapeSamples), a.lastError ?? '–'],
              }))}
            />
          )}
        </div>
      )}
    </Card>
  );
}
