// The datasource modal of the Grafana page (the grafana-datasource machine): the qryn kind asks for the Loki,
// Prometheus and Tempo names; the ClickHouse kind for a cluster and a name. Messages show at their fields.
import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import { css } from 'styled-system/css';
import { clickhouseDatasourceName } from '../../../../contract/grafana';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, NativeSelect } from '../../../components/ui/field';
import type { DatasourceField, GrafanaDatasourceMachine } from '../../../machines/grafana-datasource/grafana-datasource.machine';

export interface ClusterChoice {
  id: number;
  name: string;
}

const QRYN_FIELDS: { field: DatasourceField; label: string }[] = [
  { field: 'loki_name', label: 'Loki datasource name' },
  { field: 'prometheus_name', label: 'Prometheus datasource name' },
  { field: 'tempo_name', label: 'Tempo datasource name' },
];

export function DatasourceDialog({ actor, clusters = [], projectName }: { actor: Actor<GrafanaDatasourceMachine>; clusters?: readonly ClusterChoice[]; projectName: string }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const form = useSelector(actor, (s) => s.context.form);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const error = useSelector(actor, (s) => s.context.error);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const qryn = form?.type !== 'clickhouse';
  const change = (field: DatasourceField, value: string) => actor.send({ type: 'datasource.change', field, value });
  const errorOf = (field: string) => fieldErrors[field]?.join(' ');

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !submitting) actor.send({ type: 'datasource.cancel' });
      }}
      title={qryn ? 'Add the qryn datasources' : 'Add a ClickHouse datasource'}
      description={
        qryn
          ? "Grafana gets a Loki, a Prometheus and a Tempo datasource pointed at this project's qryn instance, with a read-only token of their own."
          : "Grafana gets a datasource (grafana-clickhouse-datasource) pointed at the cluster's HTTP endpoint."
      }
      footer={
        <>
          <Button variant="outline" disabled={submitting} onClick={() => actor.send({ type: 'datasource.cancel' })}>
            Cancel
          </Button>
          <Button type="submit" form="grafana-datasource-form" loading={submitting}>
            {qryn ? 'Add datasources' : 'Add datasource'}
          </Button>
        </>
      }
    >
      {form && (
        <form
          id="grafana-datasource-form"
          aria-label={qryn ? 'qryn datasources' : 'ClickHouse datasource'}
          noValidate
          className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'datasource.submit' });
          }}
        >
          {error && <Alert status="error">{error}</Alert>}
          {qryn ? (
            QRYN_FIELDS.map(({ field, label }) => (
              <Field key={field} label={label} required errorText={errorOf(field)} disabled={submitting}>
                <Input value={(form[field as 'loki_name'] as string | undefined) ?? ''} onChange={(e) => change(field, e.target.value)} />
              </Field>
            ))
          ) : (
            <>
              <Field label="Cluster" required errorText={errorOf('cluster_id')} disabled={submitting}>
                <NativeSelect
                  value={form.cluster_id ?? ''}
                  onChange={(e) => {
                    change('cluster_id', e.target.value);
                    const cluster = clusters.find((c) => String(c.id) === e.target.value);
                    // The name follows the cluster until the person types their own.
                    if (cluster && (!form.name || clusters.some((c) => form.name === clickhouseDatasourceName(projectName, c.name)))) {
                      change('name', clickhouseDatasourceName(projectName, cluster.name));
                    }
                  }}
                >
                  <option value="">Select a cluster…</option>
                  {clusters.map((cluster) => (
                    <option key={cluster.id} value={cluster.id}>
                      {cluster.name}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label="Datasource name" required errorText={errorOf('name')} disabled={submitting}>
                <Input value={form.name ?? ''} onChange={(e) => change('name', e.target.value)} />
              </Field>
            </>
          )}
        </form>
      )}
    </Dialog>
  );
}
