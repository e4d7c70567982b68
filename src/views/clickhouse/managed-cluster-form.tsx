// The managed cluster form (spec 001 §5, §9): four sections (name and location, compute, storage, access) beside a
// sticky cost summary at desktop widths, one column on phones. Every rule of the contract is checked as the form
// changes once it was submitted (the server checks the same ones again); a failed submit puts focus on the first
// field that needs attention. Trial accounts (no payment method) get the default cluster, machine and disks fixed.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { DEFAULT_MACHINES, clusterLimits, defaultClusterForm, validateCreateCluster, type CreateClusterBody, type Provider } from '../../../contract/clickhouse';
import type { FieldErrors } from '../../../contract/common';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field, Input, NativeSelect } from '../../components/ui/field';
import { getClickhouseVersions, getDiskTypes, getMachines, getRegions, getZones } from '../../services/clickhouse';
import { CostSummary, costBreakdown } from './cluster-cost-summary';
import { useCreateCluster } from './use-create-cluster';

const REFERENCE_STALE_MS = 3_600_000;
const DEFAULT_DISK_TYPE: Record<Provider, string> = { aws: 'gp3', gcp: 'pd-ssd' };
/** The local provisioner's cap, stated where the shape is chosen (docs/clickhouse.md "Local cap"). */
export const LOCAL_CAP_HELP =
  'On this installation every node is a real ClickHouse server on the platform machine: at most 4 server processes per cluster and 12 in total. Nodes beyond that run as extra databases of one server. Nothing is created at the cloud provider.';

const twoColumns = css({ display: 'grid', gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, gap: '4' });

/** The provider's regions by continent, in the price list's order (an optgroup each keeps the options short). */
function regionGroups<R extends { provider: string; continent: string }>(regions: readonly R[], provider: Provider): [string, R[]][] {
  const groups = new Map<string, R[]>();
  for (const r of regions) if (r.provider === provider) groups.set(r.continent, [...(groups.get(r.continent) ?? []), r]);
  return [...groups];
}

function FormSection({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className={css({ display: 'flex', flexDirection: 'column', gap: '4', p: { base: '4', sm: '5' }, bg: 'bg.default', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'l3', minW: '0' })}
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
        <h3 id={id} className={css({ textStyle: 'md', fontWeight: 'semibold' })}>
          {title}
        </h3>
        {description && <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>{description}</p>}
      </div>
      {children}
    </section>
  );
}

export function ManagedForm({ projectId, hasPaymentMethod }: { projectId: number; hasPaymentMethod: boolean }) {
  const [form, setForm] = useState<CreateClusterBody>(() => defaultClusterForm('aws', DEFAULT_DISK_TYPE.aws));
  const [touched, setTouched] = useState(false);
  const [fromServer, setFromServerState] = useState<FieldErrors>({});
  // Counts refused submits (the client's rules or the server's 422): each one moves focus to the first invalid field.
  const [refusals, setRefusals] = useState(0);
  const setFromServer = (errors: FieldErrors) => {
    setFromServerState(errors);
    setRefusals((n) => n + 1);
  };
  const { send, failure, submitting } = useCreateCluster(projectId, setFromServer);
  const formRef = useRef<HTMLFormElement>(null);
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
    setFromServerState({});
  };
  const updateDisk = (i: number, patch: Partial<CreateClusterBody['disks'][number]>) => update({ disks: form.disks.map((d, j) => (j === i ? { ...d, ...patch } : d)) });
  const machine = machines.data?.find((m) => m.provider === provider && m.name === form.machine);
  const breakdown = costBreakdown({ machine, shards: form.shards, replicas: form.replicas, disks: form.disks, diskTypes: diskTypes.data ?? [] });
  const referenceFailed = regions.isError || machines.isError || versions.isError || diskTypes.isError;

  useEffect(() => {
    if (refusals === 0) return;
    // In document order: the first control Ark marked invalid, or the first zone of a refused zone choice.
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[data-invalid] input')?.focus();
  }, [refusals]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(validateCreateCluster(form, { hasPaymentMethod })).length > 0) {
      setRefusals((n) => n + 1);
      return;
    }
    await send(form);
  };

  if (referenceFailed) return <Alert status="error" title="We could not fetch the necessary data to create a ClickHouse cluster">Please reload the page.</Alert>;
  const numberValue = (n: number) => (Number.isFinite(n) ? n : '');
  const numberOf = (text: string) => (text === '' ? Number.NaN : Number(text));
  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label="Managed cluster"
      className={css({ display: 'grid', gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 20rem' }, gap: '6', alignItems: 'start' })}
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
        {!hasPaymentMethod && (
          <Alert status="info">
            Without a payment method you get the default cluster: {limits.maxShards} shard, up to {limits.maxReplicas} replicas, the default machine and one 150 GB disk.
          </Alert>
        )}
        <FormSection title="Name and location">
          <Field label="Name" errorText={errorOf('name')} required helperText="Lowercase letters, digits and dashes; up to 15 characters.">
            <Input value={form.name} onChange={(e) => update({ name: e.target.value })} />
          </Field>
          <div className={twoColumns}>
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
                {regionGroups(regions.data ?? [], provider).map(([continent, list]) => (
                  <optgroup key={continent} label={continent}>
                    {list.map((r) => (
                      <option key={r.code} value={r.code}>
                        {r.name} ({r.code})
                      </option>
                    ))}
                  </optgroup>
                ))}
              </NativeSelect>
            </Field>
          </div>
          {provider === 'gcp' && form.region_code && (
            <fieldset
              data-invalid={errorOf('zones', 'zonal') ? '' : undefined}
              aria-describedby={errorOf('zones', 'zonal') ? 'zones-error' : undefined}
              className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
            >
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
        </FormSection>

        <FormSection title="Compute" description={LOCAL_CAP_HELP}>
          <Field
            label="Machine"
            errorText={errorOf('machine')}
            required
            disabled={!hasPaymentMethod}
            helperText={machine ? `${machine.cpu} CPU, ${machine.ram} ${machine.ramUnit} per node; $${machine.monthlyCost.toFixed(2)} per node per month.` : undefined}
          >
            {/* The price is in the helper text and the summary: in the option it was cut off on phones. */}
            <NativeSelect value={form.machine} disabled={!hasPaymentMethod} onChange={(e) => update({ machine: e.target.value })}>
              {(machines.data ?? [])
                .filter((m) => m.provider === provider)
                .map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.title} · {m.cpu} CPU · {m.ram} {m.ramUnit}
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
          <div className={twoColumns}>
            <Field label="Shards" errorText={errorOf('shards')} required helperText={`1 to ${limits.maxShards}.`}>
              <Input type="number" min={1} max={limits.maxShards} value={numberValue(form.shards)} onChange={(e) => update({ shards: numberOf(e.target.value) })} />
            </Field>
            <Field label="Replicas" errorText={errorOf('replicas')} required helperText={`1 to ${limits.maxReplicas} per shard.`}>
              <Input type="number" min={1} max={limits.maxReplicas} value={numberValue(form.replicas)} onChange={(e) => update({ replicas: numberOf(e.target.value) })} />
            </Field>
          </div>
        </FormSection>

        <FormSection title="Storage">
          {errorOf('disks') && (
            <p role="alert" className={css({ color: 'fg.error', textStyle: 'sm' })}>
              {errorOf('disks')}
            </p>
          )}
          {form.disks.map((disk, i) => (
            <div key={i} className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '4', borderBottomWidth: '1px', borderColor: 'border.subtle' })}>
              <div className={css({ display: 'grid', gridTemplateColumns: { base: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1.4fr) minmax(0, 0.8fr)' }, gap: '4' })}>
                <Field label={`Disk ${i + 1} name`} errorText={errorOf(`disks.${i}.name`)} disabled={i === 0 || !hasPaymentMethod}>
                  <Input value={disk.name} disabled={i === 0 || !hasPaymentMethod} onChange={(e) => updateDisk(i, { name: e.target.value })} />
                </Field>
                <Field label={`Disk ${i + 1} type`} errorText={errorOf(`disks.${i}.type`)} disabled={!hasPaymentMethod}>
                  <NativeSelect value={disk.type} disabled={!hasPaymentMethod} onChange={(e) => updateDisk(i, { type: e.target.value })}>
                    {(diskTypes.data ?? []).map((t) => (
                      <option key={t.name} value={t.name}>
                        {t.title}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field label={`Disk ${i + 1} size (${disk.unit_type === 'Binary' ? 'GiB' : 'GB'})`} errorText={errorOf(`disks.${i}.size`)} disabled={!hasPaymentMethod}>
                  <Input type="number" step="0.01" value={numberValue(disk.size)} disabled={!hasPaymentMethod} onChange={(e) => updateDisk(i, { size: numberOf(e.target.value) })} />
                </Field>
              </div>
              {i > 0 && hasPaymentMethod && (
                <Button variant="ghost" size="sm" className={css({ alignSelf: 'flex-start' })} onClick={() => update({ disks: form.disks.filter((_, j) => j !== i) })}>
                  Remove disk {i + 1}
                </Button>
              )}
            </div>
          ))}
          {hasPaymentMethod && (
            <Button
              variant="outline"
              size="sm"
              className={css({ alignSelf: 'flex-start' })}
              onClick={() => update({ disks: [...form.disks, { name: `disk_${form.disks.length + 1}`, type: DEFAULT_DISK_TYPE[provider], size: 10, unit_type: 'Decimal' }] })}
            >
              Add disk
            </Button>
          )}
        </FormSection>

        <FormSection title="Access" description="The cluster's admin user, and the addresses allowed to connect.">
          <Field label="Admin user" errorText={errorOf('admin_user')} required>
            <Input value={form.admin_user} autoComplete="off" onChange={(e) => update({ admin_user: e.target.value })} />
          </Field>
          <div className={twoColumns}>
            <Field label="Admin password" errorText={errorOf('admin_password')} required>
              <Input type="password" value={form.admin_password} autoComplete="new-password" onChange={(e) => update({ admin_password: e.target.value })} />
            </Field>
            <Field label="Confirm password" errorText={errorOf('confirm_password')} required>
              <Input type="password" value={form.confirm_password} autoComplete="new-password" onChange={(e) => update({ confirm_password: e.target.value })} />
            </Field>
          </div>
          <Field label="IP safe list" helperText="Comma-separated IPv4 addresses with an optional /0-32. Empty allows every address." errorText={errorOf('ip_safe_list')}>
            <Input value={form.ip_safe_list ?? ''} onChange={(e) => update({ ip_safe_list: e.target.value })} />
          </Field>
        </FormSection>
      </div>

      <CostSummary breakdown={breakdown}>
        {failure && <Alert status="error">{failure}</Alert>}
        <Button type="submit" loading={submitting} className={css({ w: 'full' })}>
          Create cluster
        </Button>
      </CostSummary>
    </form>
  );
}
