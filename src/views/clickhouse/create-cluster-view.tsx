// /{projectSlug}/stack/clickhouse/create (spec 001 §2, §5, §9): the Managed tab (managed-cluster-form.tsx: sections
// beside a live cost summary) and the External tab, a cluster the platform connects to.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { css } from 'styled-system/css';
import { CreateExternalClusterBody } from '../../../contract/clickhouse';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { projectIdFromSlug } from '../../../contract/projects';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { getClusterCreation } from '../../services/clickhouse';
import { ManagedForm } from './managed-cluster-form';
import { useCreateCluster } from './use-create-cluster';

const panel = css({ display: 'flex', flexDirection: 'column', gap: '4', p: { base: '4', sm: '5' }, bg: 'bg.default', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'l3', maxW: '2xl' });
const twoColumns = css({ display: 'grid', gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, gap: '4' });

export function CreateClusterView() {
  const projectId = projectIdFromSlug(useParams().projectSlug ?? '') ?? 0;
  const [tab, setTab] = useState<'managed' | 'external'>('managed');
  const creation = useQuery({ queryKey: ['clickhouse', 'creation', projectId], queryFn: () => getClusterCreation(projectId), staleTime: 10_000, retry: false });
  if (creation.isLoading) return <Spinner label="Loading" />;
  if (creation.isError || !creation.data) return <Alert status="error" title="We could not determine if ClickHouse cluster creation is allowed">There may be a billing problem. Please reload the page.</Alert>;
  if (!creation.data.allowed) {
    return <Alert status="info" title="Cluster creation is not allowed">Without a payment method a project can have a single ClickHouse cluster. Add a payment method to create more.</Alert>;
  }
  return (
    <section aria-labelledby="new-cluster-title" className={css({ display: 'flex', flexDirection: 'column', gap: '5', minW: '0' })}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3' })}>
        <h2 id="new-cluster-title" className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>
          New ClickHouse cluster
        </h2>
        <div role="tablist" aria-label="Cluster kind" className={css({ display: 'inline-flex', gap: '1', p: '1', bg: 'bg.subtle', borderRadius: 'l2', borderWidth: '1px', borderColor: 'border.default' })}>
          <Button role="tab" size="sm" aria-selected={tab === 'managed'} variant={tab === 'managed' ? 'solid' : 'ghost'} onClick={() => setTab('managed')}>
            Managed
          </Button>
          <Button role="tab" size="sm" aria-selected={tab === 'external'} variant={tab === 'external' ? 'solid' : 'ghost'} onClick={() => setTab('external')}>
            External
          </Button>
        </div>
      </div>
      {tab === 'managed' ? <ManagedForm projectId={projectId} hasPaymentMethod={creation.data.hasPaymentMethod} /> : <ExternalForm projectId={projectId} />}
    </section>
  );
}

function ExternalForm({ projectId }: { projectId: number }) {
  const [form, setForm] = useState({ is_external: true as const, name: '', host: '', http_port: 8123, tcp_port: 9000, secure: false, username: '', password: '' });
  const [errors, setErrorsState] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  // A refused submit (the client's rules or the server's) puts focus on the first invalid field.
  const setErrors = (next: FieldErrors) => {
    setErrorsState(next);
    if (Object.keys(next).length > 0) setRefusals((n) => n + 1);
  };
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const { send, failure, submitting } = useCreateCluster(projectId, setErrors);
  const update = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = decodeInput(CreateExternalClusterBody, form);
    if (!outcome.ok) return setErrors(outcome.errors);
    setErrors({});
    await send(form);
  };
  const err = (k: string) => errors[k]?.join(' ');
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="External cluster" className={panel}>
      <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>A ClickHouse server you run yourself; the platform connects to it with these credentials.</p>
      <Field label="Name" errorText={err('name')} required>
        <Input value={form.name} onChange={(e) => update({ name: e.target.value })} />
      </Field>
      <Field label="Host" errorText={err('host')} required>
        <Input value={form.host} onChange={(e) => update({ host: e.target.value })} />
      </Field>
      <div className={twoColumns}>
        <Field label="HTTP port" errorText={err('http_port')} required>
          <Input type="number" min={1} value={form.http_port} onChange={(e) => update({ http_port: Number(e.target.value) })} />
        </Field>
        <Field label="TCP port" errorText={err('tcp_port')} required>
          <Input type="number" min={1} value={form.tcp_port} onChange={(e) => update({ tcp_port: Number(e.target.value) })} />
        </Field>
      </div>
      <label className={css({ display: 'inline-flex', alignItems: 'center', gap: '2' })}>
        <input type="checkbox" checked={form.secure} onChange={(e) => update({ secure: e.target.checked })} /> Secure (HTTPS)
      </label>
      <Field label="Username" errorText={err('username')} required>
        <Input value={form.username} autoComplete="off" onChange={(e) => update({ username: e.target.value })} />
      </Field>
      <Field label="Password" errorText={err('password')} required>
        <Input type="password" value={form.password} autoComplete="off" onChange={(e) => update({ password: e.target.value })} />
      </Field>
      {failure && <Alert status="error">{failure}</Alert>}
      <Button type="submit" loading={submitting} className={css({ alignSelf: 'flex-start' })}>
        Connect cluster
      </Button>
    </form>
  );
}
