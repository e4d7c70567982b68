// /{projectSlug}/stack/clickhouse/create (spec 001 §2, §5, §9): a managed cluster with every rule of the contract
// checked as the form changes (the server checks the same ones again), a live monthly cost estimate, and the
// External tab. Trial accounts (no payment method) get the default cluster with the machine and disks fixed.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  CreateExternalClusterBody,
  DEFAULT_MACHINES,
  clusterLimits,
  defaultClusterForm,
  estimateMonthlyCost,
  validateCreateCluster,
  type CreateClusterBody,
  type Provider,
} from '../../../contract/clickhouse';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { projectIdFromSlug } from '../../../contract/projects';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, Input, NativeSelect } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { css } from 'styled-system/css';
import { createCluster, getClickhouseVersions, getClusterCreation, getDiskTypes, getMachines, getRegions, getZones } from '../../services/clickhouse';

const REFERENCE_STALE_MS = 3_600_000;
const DEFAULT_DISK_TYPE: Record<Provider, string> = { aws: 'gp3', gcp: 'pd-ssd' };
/** The local provisioner's cap, stated where the shape is chosen (docs/clickhouse.md "Local cap"). */
export const LOCAL_CAP_HELP =
  'On this installation every node is a real ClickHouse server on the platform machine: at most 4 server processes per cluster and 12 in total. Nodes beyond that run as extra databases of one server. Nothing is created at the cloud provider.';

const serverErrors = (error: unknown): FieldErrors | null => {
  const details = (error as { details?: unknown } | null)?.details;
  return details && typeof details === 'object' ? (details as FieldErrors) : null;
};

/**
 * Sends a create body; on success opens the new cluster's page, on a 422 hands the field messages back, otherwise
 * keeps the failure's text. The form keeps what the user filled in either way.
 */
function useCreateCluster(projectId: number, onFieldErrors: (errors: FieldErrors) => void) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const send = async (body: Parameters<typeof createCluster>[1]) => {
    setSubmitting(true);
    setFailure(null);
    try {
      const result = await createCluster(projectId, body);
      await queryClient.invalidateQueries({ queryKey: ['clickhouse'] });
      navigate(`../cluster/${result.cluster.id}`);
    } catch (error) {
      const details = serverErrors(error);
      if (details) onFieldErrors(details);
      else setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSubmitting(false);
    }
  };
  return { send, failure, submitting };
}

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
    <Card title="New ClickHouse cluster">
      <div role="tablist" aria-label="Cluster kind">
        <Button role="tab" aria-selected={tab === 'managed'} variant={tab === 'managed' ? 'solid' : 'outline'} onClick={() => setTab('managed')}>
          Managed
        </Button>
        <Button role="tab" aria-selected={tab === 'external'} variant={tab === 'external' ? 'solid' : 'outline'} onClick={() => setTab('external')}>
          External
        </Button>
      </div>
      {tab === 'managed' ? <ManagedForm projectId={projectId} hasPaymentMethod={creation.data.hasPaymentMethod} /> : <ExternalForm projectId={projectId} />}
    </Card>
  );
}

function ManagedForm({ projectId, hasPaymentMethod }: { projectId: number; hasPaymentMethod: boolean }) {
  const [form, setForm] = useState<CreateClusterBody>(() => defaultClusterForm('aws', DEFAULT_DISK_TYPE.aws));
  const [touched, setTouched] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors>({});
  const { send, failure, submitting } = useCreateCluster(projectId, setFromServer);
  const provider = (form.provider === 'gcp' ? 'gcp' : 'aws') as Provider;
  const regions = useQuery({ queryKey: ['clickhouse', 'regions'], queryFn: getRegions, staleTime: REFERENCE_STALE_MS, retry: false });
  const machines = useQuery({ queryKey: ['clickhouse', 'machines'], queryFn: getMachines, staleTime: REFERENCE_STALE_MS, retry: false });
  const versions = useQuery({ queryKey: ['clickhouse', 'versions'], queryFn: getClickhouseVersions, staleTime: REFERENCE_STALE_MS, retry: false });
  const diskTypes = useQuery({ queryKey: ['clickhouse', 'disk-types', provider], queryFn: () => getDiskTypes(projectId, provider), staleTime: REFERENCE_STALE_MS, retry: false });
  const zones = useQuery({
    queryKey: ['clickhouse', 'zones', provider, form.region_code],
    queryFn: () => getZones(projectId, provider, form.region_code),
    enabled: provider === 'gcp' && form.region_code !== '',
    staleTime: REFERENCE_STALE_MS,
    retry: false,
  });
  const limits = clusterLimits(hasPaymentMethod);
  const errors: FieldErrors = { ...(touched ? validateCreateCluster(form, { hasPaymentMethod }) : {}), ...fromServer };
  const errorOf = (...keys: string[]) => keys.flatMap((k) => errors[k] ?? []).join(' ') || undefined;
  const update = (patch: Partial<CreateClusterBody>) => {
    setForm((f) => ({ ...f, ...patch }));
    setFromServer({});
  };
  const machine = machines.data?.find((m) => m.provider === provider && m.name === form.machine);
  const cost = estimateMonthlyCost({
    machine: machine ? { monthly_cost: machine.monthlyCost } : undefined,
    shards: form.shards,
    replicas: form.replicas,
    disks: form.disks,
    diskTypes: (diskTypes.data ?? []).map((d) => ({ name: d.name, monthly_rate_price: d.monthlyRatePrice })),
  });
  const referenceFailed = regions.isError || machines.isError || versions.isError || diskTypes.isError;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(validateCreateCluster(form, { hasPaymentMethod })).length > 0) return;
    await send(form);
  };

  if (referenceFailed) return <Alert status="error" title="We could not fetch the necessary data to create a ClickHouse cluster">Please reload the page.</Alert>;
  return (
    <form onSubmit={submit} noValidate aria-label="Managed cluster">
      <p>{LOCAL_CAP_HELP}</p>
      {!hasPaymentMethod && <Alert status="info">Without a payment method you get the default cluster: {limits.maxShards} shard, up to {limits.maxReplicas} replicas, the default machine and one 150 GB disk.</Alert>}
      <Field label="Name" errorText={errorOf('name')} required>
        <Input value={form.name} onChange={(e) => update({ name: e.target.value })} />
      </Field>
      <Field label="Provider" errorText={errorOf('provider')} required>
        <NativeSelect
          value={form.provider}
          onChange={(e) => {
            const next = e.target.value as Provider;
            update({ provider: next, region_code: '', machine: DEFAULT_MACHINES[next], zones: [], control_plane_zone: null, disks: form.disks.map((d, i) => (i === 0 ? { ...d, type: DEFAULT_DISK_TYPE[next] } : d)) });
          }}
        >
          <option value="aws">aws</option>
          <option value="gcp">gcp</option>
        </NativeSelect>
      </Field>
      <Field label="Region" errorText={errorOf('region_code')} required>
        <NativeSelect value={form.region_code} onChange={(e) => update({ region_code: e.target.value, zones: [], control_plane_zone: null })}>
          <option value="">Select a region</option>
          {(regions.data ?? [])
            .filter((r) => r.provider === provider)
            .map((r) => (
              <option key={r.code} value={r.code}>
                {r.continent} — {r.name} ({r.code})
              </option>
            ))}
        </NativeSelect>
      </Field>
      {provider === 'gcp' && form.region_code && (
        <fieldset aria-describedby={errorOf('zones', 'zonal') ? 'zones-error' : undefined} className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <legend className={css({ fontWeight: 'medium', mb: '1' })}>Zones</legend>
          {/* Each zone a spaced label of its own: bare inline labels ran together ("us-central1-aus-central1-b…"). */}
          <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2 4' })}>
            {(zones.data ?? []).map((z) => (
              <label key={z.name} className={css({ display: 'inline-flex', alignItems: 'center', gap: '1.5' })}>
                <input
                  type="checkbox"
                  checked={(form.zones ?? []).includes(z.name)}
                  onChange={(e) => {
                    const next = e.target.checked ? [...(form.zones ?? []), z.name] : (form.zones ?? []).filter((x) => x !== z.name);
                    update({ zones: next, zonal: next.length === (zones.data ?? []).length ? 1 : 0, control_plane_zone: next.includes(form.control_plane_zone ?? '') ? form.control_plane_zone : null });
                  }}
                />
                {z.name}
              </label>
            ))}
          </div>
          {errorOf('zones', 'zonal') && (
            <p id="zones-error" role="alert" className={css({ color: 'fg.error', textStyle: 'sm' })}>
              {errorOf('zones', 'zonal')}
            </p>
          )}
          <Field label="Control plane zone" errorText={errorOf('control_plane_zone')}>
            <NativeSelect value={form.control_plane_zone ?? ''} onChange={(e) => update({ control_plane_zone: e.target.value || null })}>
              <option value="">Select a zone</option>
              {(form.zones ?? []).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </fieldset>
      )}
      <Field label="Machine" errorText={errorOf('machine')} required disabled={!hasPaymentMethod}>
        <NativeSelect value={form.machine} disabled={!hasPaymentMethod} onChange={(e) => update({ machine: e.target.value })}>
          {(machines.data ?? [])
            .filter((m) => m.provider === provider)
            .map((m) => (
              <option key={m.name} value={m.name}>
                {m.title}: {m.cpu} CPU, {m.ram} {m.ramUnit}, ${m.monthlyCost}/month
              </option>
            ))}
        </NativeSelect>
      </Field>
      <Field
        label="Version"
        errorText={errorOf('version')}
        required
        // What runs the version, as the back end says (this machine's package, an operator's image), so nobody
        // expects a version the installation cannot run.
        helperText={versions.data && (versions.data.length === 0 ? 'No ClickHouse version can be run by this installation.' : versions.data.find((v) => v.imageTag === form.version)?.description)}
      >
        <NativeSelect value={form.version} onChange={(e) => update({ version: e.target.value })}>
          <option value="">Select a version</option>
          {(versions.data ?? []).map((v) => (
            <option key={v.imageTag} value={v.imageTag}>
              {v.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Shards" errorText={errorOf('shards')} required>
        <Input type="number" min={1} max={limits.maxShards} value={Number.isFinite(form.shards) ? form.shards : ''} onChange={(e) => update({ shards: e.target.value === '' ? Number.NaN : Number(e.target.value) })} />
      </Field>
      <Field label="Replicas" errorText={errorOf('replicas')} required>
        <Input type="number" min={1} max={limits.maxReplicas} value={Number.isFinite(form.replicas) ? form.replicas : ''} onChange={(e) => update({ replicas: e.target.value === '' ? Number.NaN : Number(e.target.value) })} />
      </Field>
      <fieldset>
        <legend>Disks</legend>
        {errorOf('disks') && <p role="alert">{errorOf('disks')}</p>}
        {form.disks.map((disk, i) => (
          <div key={i}>
            <Field label={`Disk ${i + 1} name`} errorText={errorOf(`disks.${i}.name`)} disabled={i === 0 || !hasPaymentMethod}>
              <Input value={disk.name} disabled={i === 0 || !hasPaymentMethod} onChange={(e) => update({ disks: form.disks.map((d, j) => (j === i ? { ...d, name: e.target.value } : d)) })} />
            </Field>
            <Field label={`Disk ${i + 1} type`} errorText={errorOf(`disks.${i}.type`)} disabled={!hasPaymentMethod}>
              <NativeSelect value={disk.type} disabled={!hasPaymentMethod} onChange={(e) => update({ disks: form.disks.map((d, j) => (j === i ? { ...d, type: e.target.value } : d)) })}>
                {(diskTypes.data ?? []).map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.title}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label={`Disk ${i + 1} size (${disk.unit_type === 'Binary' ? 'GiB' : 'GB'})`} errorText={errorOf(`disks.${i}.size`)} disabled={!hasPaymentMethod}>
              <Input type="number" step="0.01" value={Number.isFinite(disk.size) ? disk.size : ''} disabled={!hasPaymentMethod} onChange={(e) => update({ disks: form.disks.map((d, j) => (j === i ? { ...d, size: e.target.value === '' ? Number.NaN : Number(e.target.value) } : d)) })} />
            </Field>
            {i > 0 && hasPaymentMethod && (
              <Button variant="outline" size="sm" onClick={() => update({ disks: form.disks.filter((_, j) => j !== i) })}>
                Remove disk {i + 1}
              </Button>
            )}
          </div>
        ))}
        {hasPaymentMethod && (
          <Button variant="outline" size="sm" onClick={() => update({ disks: [...form.disks, { name: `disk_${form.disks.length + 1}`, type: DEFAULT_DISK_TYPE[provider], size: 10, unit_type: 'Decimal' }] })}>
            Add disk
          </Button>
        )}
      </fieldset>
      <Field label="IP safe list" helperText="Comma-separated IPv4 addresses with an optional /0-32. Empty allows every address." errorText={errorOf('ip_safe_list')}>
        <Input value={form.ip_safe_list ?? ''} onChange={(e) => update({ ip_safe_list: e.target.value })} />
      </Field>
      <Field label="Admin user" errorText={errorOf('admin_user')} required>
        <Input value={form.admin_user} autoComplete="off" onChange={(e) => update({ admin_user: e.target.value })} />
      </Field>
      <Field label="Admin password" errorText={errorOf('admin_password')} required>
        <Input type="password" value={form.admin_password} autoComplete="new-password" onChange={(e) => update({ admin_password: e.target.value })} />
      </Field>
      <Field label="Confirm password" errorText={errorOf('confirm_password')} required>
        <Input type="password" value={form.confirm_password} autoComplete="new-password" onChange={(e) => update({ confirm_password: e.target.value })} />
      </Field>
      <p aria-live="polite">Estimated cost: ${cost.toFixed(2)} per month, VAT included</p>
      {failure && <Alert status="error">{failure}</Alert>}
      <Button type="submit" loading={submitting}>
        Create cluster
      </Button>
    </form>
  );
}

function ExternalForm({ projectId }: { projectId: number }) {
  const [form, setForm] = useState({ is_external: true as const, name: '', host: '', http_port: 8123, tcp_port: 9000, secure: false, username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
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
    <form onSubmit={submit} noValidate aria-label="External cluster">
      <Field label="Name" errorText={err('name')} required>
        <Input value={form.name} onChange={(e) => update({ name: e.target.value })} />
      </Field>
      <Field label="Host" errorText={err('host')} required>
        <Input value={form.host} onChange={(e) => update({ host: e.target.value })} />
      </Field>
      <Field label="HTTP port" errorText={err('http_port')} required>
        <Input type="number" min={1} value={form.http_port} onChange={(e) => update({ http_port: Number(e.target.value) })} />
      </Field>
      <Field label="TCP port" errorText={err('tcp_port')} required>
        <Input type="number" min={1} value={form.tcp_port} onChange={(e) => update({ tcp_port: Number(e.target.value) })} />
      </Field>
      <label>
        <input type="checkbox" checked={form.secure} onChange={(e) => update({ secure: e.target.checked })} /> Secure (HTTPS)
      </label>
      <Field label="Username" errorText={err('username')} required>
        <Input value={form.username} autoComplete="off" onChange={(e) => update({ username: e.target.value })} />
      </Field>
      <Field label="Password" errorText={err('password')} required>
        <Input type="password" value={form.password} autoComplete="off" onChange={(e) => update({ password: e.target.value })} />
      </Field>
      {failure && <Alert status="error">{failure}</Alert>}
      <Button type="submit" loading={submitting}>
        Connect cluster
      </Button>
    </form>
  );
}
