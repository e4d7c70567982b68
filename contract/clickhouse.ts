import { Schema } from 'effect';
import { IdFromString, type FieldErrors } from './common';
import { isCommonPassword } from './common-passwords';

// ClickHouse clusters (spec 001 §2 ClickHouse, §3 ClickHouse cluster and supporting data, §4 Cluster status values,
// §5 Managed ClickHouse cluster / External cluster / IP safe list update, §7 ClickHouse, §9). The console's create
// form and the API validate with the same rules below; the server adds the checks that need the price list (known
// region, machine, disk type, zones) and the project's payment method.

// ---------------------------------------------------------------------------------------------------------------
// Messages (the spec's exact texts where it gives one; our own, in the same voice, where it is silent)

export const ClusterMessage = {
  nameRequired: 'The cluster name is required.',
  nameTooLong: 'The cluster name cannot exceed 15 characters.',
  namePattern: 'The cluster name can only have lowercase letters, digits and dashes, start with a letter and end with a letter or digit.',
  provider: 'The provider must be aws or gcp.',
  regionRequired: 'The region is required.',
  machineRequired: 'The machine is required.',
  versionRequired: 'The version is required.',
  diskRequired: 'You need at least one disk',
  diskNamesUnique: 'All the disks must have a unique name.',
  diskNamePattern: 'Disk names can only have lowercase letters, digits and underscores, start with a letter and end with a letter or digit.',
  diskTypeRequired: 'The disk type is required.',
  diskSizeMin: 'Disks must be at least 10 GB/GiB in size',
  diskSizeDecimals: 'Disk sizes can have at most 2 decimals.',
  diskFirstFixed: 'The first disk cannot be deleted or renamed.',
  diskSt1PerNode: 'Disks of type st1 need at least 150 GB per node (shards x replicas).',
  diskGp2PerNode: 'Disks of type gp2 need at least 5 GB per node (shards x replicas).',
  shardsInteger: 'The shards must be a whole number.',
  shardsMin: 'There must be at least 1 shard.',
  shardsMax: (max: number) => (max === 1 ? 'Without a payment method a cluster has 1 shard.' : `The shards cannot exceed ${max}.`),
  replicasInteger: 'The replicas must be a whole number.',
  replicasMin: 'There must be at least 1 replica.',
  replicasMax: (max: number) => (max === 2 ? 'Without a payment method a cluster has at most 2 replicas.' : `The replicas cannot exceed ${max}.`),
  adminUserTooShort: 'The username must be at least 5 characters.',
  adminUserNotAllowed: 'This username is not allowed.',
  adminUserPattern: 'The username can only have letters, digits, dots, dashes and underscores and must start with a letter.',
  adminPasswordTooShort: 'The password must be at least 8 characters.',
  adminPasswordCommon: 'This password is one of the most common ones. Choose one that is harder to guess.',
  adminPasswordIsUser: 'The password cannot be the username.',
  passwordMismatch: 'The password does not match.',
  ipSafeList: 'Some IP address is not valid.',
  zonesRequired: 'You need to select at least one zone.',
  zonesMultiple: 'The shards must be a multiple of the number of selected zones.',
  controlPlaneZone: 'You need to select a zone for the control plane.',
  zonesOnlyGcp: 'Zones can only be selected on gcp.',
  trialDefaultOnly: 'Without a payment method the cluster uses the default configuration.',
  hostRequired: 'The host is required.',
  hostInvalid: 'The host must be a host name or an IP address, without a scheme, port or path.',
  hostNotAllowed: 'This host is not allowed: it is a local, private or reserved address.',
  couldNotConnect: 'We could not connect to a ClickHouse server with these settings. Check the host, the HTTP port, the secure setting, the username and the password.',
  portInvalid: 'The port must be a number of at least 1.',
  usernameRequired: 'The username is required.',
  passwordRequired: 'The password is required.',
  clusterIdRequired: 'A cluster id is needed.',
  clusterLimitReached: 'Cluster limit reached',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Business constants (§9)

export const PROVIDERS = ['aws', 'gcp'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const CONTINENTS = ['Africa', 'Americas', 'Asia Pacific', 'Europe', 'Middle East', 'Oceania'] as const;
export type Continent = (typeof CONTINENTS)[number];
export const CLUSTER_STATUSES = ['creating', 'active', 'deleting', 'failed', 'stopped', 'external'] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

export const CLUSTER_NAME_MAX = 15;
export const DISK_MIN_SIZE = 10;
export const ST1_PER_NODE_GB = 150;
export const GP2_PER_NODE_GB = 5;
export const ADMIN_USER_MIN = 5;
export const ADMIN_PASSWORD_MIN = 8;
export const MAX_SHARDS = 999;
export const MAX_REPLICAS = 999;
export const TRIAL_SHARDS = 1;
export const TRIAL_REPLICAS = 2;
export const DEFAULT_SHARDS = 1;
export const DEFAULT_REPLICAS = 2;
export const DEFAULT_DISK_NAME = 'default';
export const DEFAULT_DISK_SIZE = 150;
export const DEFAULT_MACHINES: Record<Provider, string> = { aws: 'm5_large', gcp: 'n2_standard_2' };
/** Usernames the platform keeps for itself and the products that connect to a cluster. */
// platform_internal is the platform's own user on every managed server (health checks, metrics, distributed queries):
// a customer admin of that name would replace it in users.xml.
export const RESERVED_ADMIN_USERS = ['default', 'clickhouse', 'grafana', 'qryn', 'hepic', 'loggen', 'platform_internal'] as const;

export const UNIT_BYTES = { GB: 1e9, TB: 1e12, GiB: 1.073741824e9, TiB: 1.099511627776e12 } as const;
export type UnitType = 'Decimal' | 'Binary';

/** Bytes of a disk size given in GB (Decimal) or GiB (Binary). */
export const diskSizeBytes = (size: number, unitType: UnitType) => size * (unitType === 'Binary' ? UNIT_BYTES.GiB : UNIT_BYTES.GB);

const DECIMAL_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'];

/** A byte count for display: steps of 1000 (Decimal) or 1024 (Binary) up to YB; so 1000 GB shows as 1 TB. */
export function formatBytes(bytes: number, unitType: UnitType = 'Decimal', decimals = 2): string {
  const step = unitType === 'Binary' ? 1024 : 1000;
  const units = unitType === 'Binary' ? BINARY_UNITS : DECIMAL_UNITS;
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= step && index < units.length - 1) {
    value /= step;
    index++;
  }
  // 999.999 GB rounds to "1000 GB": show the next unit instead.
  if (Number(value.toFixed(decimals)) >= step && index < units.length - 1) {
    value /= step;
    index++;
  }
  return `${Number(value.toFixed(decimals))} ${units[index]}`;
}

export type DiskLevel = 'good' | 'warn' | 'bad';
/** §9: by percentage of free space, 70 or more is good, 40 to 69 warn, below 40 bad. */
export function diskLevel(freeSpace: number, totalSpace: number): DiskLevel {
  const percent = totalSpace > 0 ? (freeSpace / totalSpace) * 100 : 0;
  if (percent >= 70) return 'good';
  if (percent >= 40) return 'warn';
  return 'bad';
}

// ---------------------------------------------------------------------------------------------------------------
// Reference data (GET regions, machines, disk-types, zones, clickhouse-versions)

export const Region = Schema.Struct({ code: Schema.String, name: Schema.String, continent: Schema.Literals(CONTINENTS), provider: Schema.Literals(PROVIDERS) });
export type Region = typeof Region.Type;
export const RegionList = Schema.Array(Region);

export const Machine = Schema.Struct({
  provider: Schema.Literals(PROVIDERS),
  name: Schema.String,
  title: Schema.String,
  cpu: Schema.Number,
  ram: Schema.Number,
  ram_unit: Schema.String,
  ram_unit_name: Schema.String,
  /** Per hour, in USD including VAT. */
  price: Schema.Number,
  /** Per month, in USD including VAT. */
  monthly_cost: Schema.Number,
});
export type Machine = typeof Machine.Type;
export const MachineList = Schema.Array(Machine);

export const DiskType = Schema.Struct({
  name: Schema.String,
  title: Schema.String,
  unit: Schema.String,
  unit_names: Schema.Array(Schema.String),
  /** Per GB-month, in USD including VAT. */
  price: Schema.Number,
  /** Per byte-month, in USD including VAT (what the estimate multiplies with the size in bytes). */
  monthly_rate_price: Schema.Number,
});
export type DiskType = typeof DiskType.Type;
export const DiskTypeList = Schema.Array(DiskType);

export const Zone = Schema.Struct({ name: Schema.String });
export const ZoneList = Schema.Array(Zone);

/** A version a cluster can be created with; `description` says what runs it (this machine's package, an image). */
export const ClickhouseVersion = Schema.Struct({ name: Schema.String, image_tag: Schema.String, description: Schema.optional(Schema.String) });
export type ClickhouseVersion = typeof ClickhouseVersion.Type;
export const ClickhouseVersionList = Schema.Array(ClickhouseVersion);

export const DiskTypesQuery = Schema.Struct({
  project_id: IdFromString.annotateKey({ messageMissingKey: 'The project id is missing' }),
  provider_slug: Schema.Literals(PROVIDERS).annotateKey({ messageMissingKey: ClusterMessage.provider }),
});
export const ZonesQuery = Schema.Struct({
  project_id: IdFromString.annotateKey({ messageMissingKey: 'The project id is missing' }),
  provider_name: Schema.Literals(PROVIDERS).annotateKey({ messageMissingKey: ClusterMessage.provider }),
  region_code: Schema.String.annotateKey({ messageMissingKey: ClusterMessage.regionRequired }),
});

/** A machine's monthly cost is its hourly price over this many hours (the price list's rule); a month's total over it is the hourly rate. */
export const HOURS_PER_MONTH = 730;

/** §9 Cost estimate per month including VAT: machine monthlyCost x shards x replicas, plus monthlyRatePrice x size in bytes per disk. */
export function estimateMonthlyCost(input: {
  machine: Pick<Machine, 'monthly_cost'> | undefined;
  shards: number;
  replicas: number;
  disks: readonly { type: string; size: number; unit_type: UnitType }[];
  diskTypes: readonly Pick<DiskType, 'name' | 'monthly_rate_price'>[];
}): number {
  const nodes = (Number.isFinite(input.shards) ? input.shards : 0) * (Number.isFinite(input.replicas) ? input.replicas : 0);
  let total = (input.machine?.monthly_cost ?? 0) * Math.max(0, nodes);
  for (const disk of input.disks) {
    const rate = input.diskTypes.find((t) => t.name === disk.type)?.monthly_rate_price ?? 0;
    if (Number.isFinite(disk.size) && disk.size > 0) total += rate * diskSizeBytes(disk.size, disk.unit_type);
  }
  return Math.round(total * 100) / 100;
}

// ---------------------------------------------------------------------------------------------------------------
// Create: the rules

const CLUSTER_NAME = /^[a-z]([a-z0-9-]*[a-z0-9])?$/;
const DISK_NAME = /^[a-z]([a-z0-9_]*[a-z0-9])?$/;
// The admin user becomes an element name of the server's users.xml, so it keeps to XML-safe characters.
const ADMIN_USER = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(\/([0-9]|[12]\d|3[0-2]))?$/;

/** One entry of an IP safe list: IPv4 with an optional /0-32. */
export const isValidIpEntry = (entry: string) => IPV4.test(entry);

/** The comma-separated IP safe list of the form, as entries ('' = allow all = []). */
export function parseIpSafeList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function clusterNameErrors(name: string): string[] {
  if (name.length === 0) return [ClusterMessage.nameRequired];
  if (name.length > CLUSTER_NAME_MAX) return [ClusterMessage.nameTooLong];
  return CLUSTER_NAME.test(name) ? [] : [ClusterMessage.namePattern];
}

/** What the payment method changes (§5): the shard and replica limits and whether only the default cluster may be made. */
export interface ClusterLimits {
  hasPaymentMethod: boolean;
}
export const clusterLimits = (hasPaymentMethod: boolean) => ({
  maxShards: hasPaymentMethod ? MAX_SHARDS : TRIAL_SHARDS,
  maxReplicas: hasPaymentMethod ? MAX_REPLICAS : TRIAL_REPLICAS,
});

const Disk = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  size: Schema.Number,
  unit_type: Schema.Literals(['Binary', 'Decimal']),
});
export type ClusterDisk = typeof Disk.Type;

/** The shape of POST integrations/clickhouse/clusters (wrong types are a 400; broken rules a 422 per field). */
const CreateClusterShape = Schema.Struct({
  name: Schema.String,
  provider: Schema.String,
  region_code: Schema.String,
  region: Schema.optionalKey(Schema.NullOr(Schema.Struct({ code: Schema.String, name: Schema.String, continent: Schema.String }))),
  machine: Schema.String,
  version: Schema.String,
  shards: Schema.Number,
  replicas: Schema.Number,
  disks: Schema.Array(Disk),
  zonal: Schema.optionalKey(Schema.Union([Schema.Boolean, Schema.Literals([0, 1])])),
  zones: Schema.optionalKey(Schema.Array(Schema.String)),
  control_plane_zone: Schema.optionalKey(Schema.NullOr(Schema.String)),
  ip_safe_list: Schema.optionalKey(Schema.String),
  admin_user: Schema.String,
  admin_password: Schema.String,
  confirm_password: Schema.String,
});
export type CreateClusterBody = typeof CreateClusterShape.Type;

const decimals = (n: number) => {
  const text = String(n);
  const dot = text.indexOf('.');
  return dot < 0 || text.includes('e') ? (text.includes('e-') ? 99 : 0) : text.length - dot - 1;
};

/**
 * Every rule of §5 for a managed cluster, as field → messages. Fields: name, provider, region_code, machine,
 * version, shards, replicas, disks (disks.N.name, disks.N.size, disks.N.type for each disk), ip_safe_list,
 * admin_user, admin_password, confirm_password, zones, control_plane_zone, zonal.
 */
export function validateCreateCluster(body: CreateClusterBody, limits: ClusterLimits): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const { maxShards, maxReplicas } = clusterLimits(limits.hasPaymentMethod);

  for (const message of clusterNameErrors(body.name)) add('name', message);
  const provider = PROVIDERS.find((p) => p === body.provider);
  if (!provider) add('provider', ClusterMessage.provider);
  if (body.region_code.trim() === '') add('region_code', ClusterMessage.regionRequired);
  if (body.machine.trim() === '') add('machine', ClusterMessage.machineRequired);
  if (body.version.trim() === '') add('version', ClusterMessage.versionRequired);

  const shardsOk = Number.isInteger(body.shards) && body.shards >= 1 && body.shards <= maxShards;
  if (!Number.isInteger(body.shards)) add('shards', ClusterMessage.shardsInteger);
  else if (body.shards < 1) add('shards', ClusterMessage.shardsMin);
  else if (body.shards > maxShards) add('shards', ClusterMessage.shardsMax(maxShards));
  const replicasOk = Number.isInteger(body.replicas) && body.replicas >= 1 && body.replicas <= maxReplicas;
  if (!Number.isInteger(body.replicas)) add('replicas', ClusterMessage.replicasInteger);
  else if (body.replicas < 1) add('replicas', ClusterMessage.replicasMin);
  else if (body.replicas > maxReplicas) add('replicas', ClusterMessage.replicasMax(maxReplicas));
  const nodes = shardsOk && replicasOk ? body.shards * body.replicas : undefined;

  if (body.disks.length === 0) add('disks', ClusterMessage.diskRequired);
  const seen = new Map<string, number>();
  body.disks.forEach((disk, i) => {
    const at = `disks.${i}`;
    if (i === 0 && disk.name !== DEFAULT_DISK_NAME) add(`${at}.name`, ClusterMessage.diskFirstFixed);
    else if (!DISK_NAME.test(disk.name)) add(`${at}.name`, ClusterMessage.diskNamePattern);
    if (seen.has(disk.name)) {
      add(`${at}.name`, ClusterMessage.diskNamesUnique);
      add('disks', ClusterMessage.diskNamesUnique);
    }
    seen.set(disk.name, i);
    if (disk.type.trim() === '') add(`${at}.type`, ClusterMessage.diskTypeRequired);
    if (!Number.isFinite(disk.size) || disk.size < DISK_MIN_SIZE) add(`${at}.size`, ClusterMessage.diskSizeMin);
    else if (decimals(disk.size) > 2) add(`${at}.size`, ClusterMessage.diskSizeDecimals);
    // Per node: the size asked for is the cluster's total, shared by shards x replicas nodes (in GB, 1e9 bytes).
    const gb = diskSizeBytes(disk.size, disk.unit_type) / UNIT_BYTES.GB;
    if (nodes !== undefined && Number.isFinite(gb)) {
      if (disk.type === 'st1' && gb < ST1_PER_NODE_GB * nodes) add(`${at}.size`, ClusterMessage.diskSt1PerNode);
      if (disk.type === 'gp2' && gb < GP2_PER_NODE_GB * nodes) add(`${at}.size`, ClusterMessage.diskGp2PerNode);
    }
  });

  const ipList = body.ip_safe_list ?? '';
  if (ipList.trim() !== '' && !ipList.split(',').every((entry) => isValidIpEntry(entry.trim()))) add('ip_safe_list', ClusterMessage.ipSafeList);

  const user = body.admin_user;
  if (user.length < ADMIN_USER_MIN) add('admin_user', ClusterMessage.adminUserTooShort);
  else if ((RESERVED_ADMIN_USERS as readonly string[]).includes(user.toLowerCase())) add('admin_user', ClusterMessage.adminUserNotAllowed);
  else if (!ADMIN_USER.test(user)) add('admin_user', ClusterMessage.adminUserPattern);
  if (body.admin_password.length < ADMIN_PASSWORD_MIN) add('admin_password', ClusterMessage.adminPasswordTooShort);
  else if (isCommonPassword(body.admin_password)) add('admin_password', ClusterMessage.adminPasswordCommon);
  else if (body.admin_password.toLowerCase() === user.toLowerCase()) add('admin_password', ClusterMessage.adminPasswordIsUser);
  if (body.confirm_password !== body.admin_password) add('confirm_password', ClusterMessage.passwordMismatch);

  const zones = body.zones ?? [];
  if (provider === 'gcp') {
    if (zones.length === 0) add('zones', ClusterMessage.zonesRequired);
    else if (shardsOk && body.shards % zones.length !== 0) add('zones', ClusterMessage.zonesMultiple);
    if (zones.length > 0 && (!body.control_plane_zone || !zones.includes(body.control_plane_zone))) add('control_plane_zone', ClusterMessage.controlPlaneZone);
  } else if (provider === 'aws' && (zones.length > 0 || body.control_plane_zone)) {
    add('zones', ClusterMessage.zonesOnlyGcp);
  }

  // Trial (§5, §9): the single default cluster: the provider's default machine and one 150 GB "default" disk.
  if (!limits.hasPaymentMethod && provider) {
    if (body.machine !== '' && body.machine !== DEFAULT_MACHINES[provider]) add('machine', ClusterMessage.trialDefaultOnly);
    const first = body.disks[0];
    if (body.disks.length > 1 || (first && first.size !== DEFAULT_DISK_SIZE)) add('disks', ClusterMessage.trialDefaultOnly);
  }
  return errors;
}

/** Maps the wire's field names to the spec's form fields (§5: name, provider, region, …, confirmPassword). */
export function toFormFieldErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const field = key === 'region_code' ? 'region' : key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    out[field] = [...(out[field] ?? []), ...messages];
  }
  return out;
}

const toIssues = (errors: FieldErrors) =>
  Object.entries(errors).flatMap(([key, messages]) => messages.map((issue) => ({ path: key.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), issue })));

/** POST integrations/clickhouse/clusters for a project with or without a payment method. */
export function createClusterBody(limits: ClusterLimits) {
  return CreateClusterShape.pipe(Schema.check(Schema.makeFilter((body: CreateClusterBody) => toIssues(validateCreateCluster(body, limits)))));
}

/** The defaults of the create form (the trial cluster). */
export function defaultClusterForm(provider: Provider, defaultDiskType: string): CreateClusterBody {
  return {
    name: 'default',
    provider,
    region_code: '',
    machine: DEFAULT_MACHINES[provider],
    version: '',
    shards: DEFAULT_SHARDS,
    replicas: DEFAULT_REPLICAS,
    disks: [{ name: DEFAULT_DISK_NAME, type: defaultDiskType, size: DEFAULT_DISK_SIZE, unit_type: 'Decimal' }],
    zones: [],
    control_plane_zone: null,
    ip_safe_list: '',
    admin_user: '',
    admin_password: '',
    confirm_password: '',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// External cluster, IP safe list update

const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const IPV4_ADDRESS = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A DNS name or an IP address (IPv6 optionally in brackets), nothing else: no scheme, port, path, user or space. */
export function isHostText(text: string): boolean {
  if (IPV4_ADDRESS.test(text)) return true;
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (/^[0-9A-Fa-f:.]+$/.test(bare) && bare.includes(':')) return /^[0-9A-Fa-f:]*(:\d+\.\d+\.\d+\.\d+)?$/.test(bare) && (bare.match(/::/g) ?? []).length <= 1;
  if (bare !== text) return false;
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  const labels = name.split('.');
  // A last label of digits only would be an IPv4 address in shorthand (127.1): not a name.
  return name.length > 0 && name.length <= 253 && labels.every((label) => HOST_LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1]);
}

export const CreateExternalClusterBody = Schema.Struct({
  is_external: Schema.Literal(true),
  name: Schema.String,
  host: Schema.String,
  http_port: Schema.Number,
  tcp_port: Schema.Number,
  secure: Schema.Boolean,
  username: Schema.String,
  password: Schema.String,
}).pipe(
  Schema.check(
    Schema.makeFilter((body: { name: string; host: string; http_port: number; tcp_port: number; username: string; password: string }) => {
      const errors: FieldErrors = {};
      const names = clusterNameErrors(body.name);
      if (names.length > 0) errors.name = names;
      if (body.host.trim() === '') errors.host = [ClusterMessage.hostRequired];
      else if (!isHostText(body.host.trim())) errors.host = [ClusterMessage.hostInvalid];
      if (!Number.isInteger(body.http_port) || body.http_port < 1 || body.http_port > 65535) errors.http_port = [ClusterMessage.portInvalid];
      if (!Number.isInteger(body.tcp_port) || body.tcp_port < 1 || body.tcp_port > 65535) errors.tcp_port = [ClusterMessage.portInvalid];
      if (body.username.trim() === '') errors.username = [ClusterMessage.usernameRequired];
      if (body.password === '') errors.password = [ClusterMessage.passwordRequired];
      return toIssues(errors);
    }),
  ),
);
export type CreateExternalClusterBody = typeof CreateExternalClusterBody.Type;

/** project_id and cluster_id of DELETE and PATCH integrations/clickhouse/clusters. */
export const ClusterQuery = Schema.Struct({
  project_id: IdFromString.annotateKey({ messageMissingKey: 'The project id is missing' }),
  cluster_id: IdFromString.annotateKey({ messageMissingKey: ClusterMessage.clusterIdRequired }),
});

/** PATCH integrations/clickhouse/clusters: replace the list, or add to it. An empty list allows every address. */
export const IpSafeListBody = Schema.Struct({
  replace: Schema.Boolean,
  ip_list: Schema.Array(Schema.String),
}).pipe(
  Schema.check(
    Schema.makeFilter((body: { ip_list: readonly string[] }) =>
      body.ip_list.every((entry) => isValidIpEntry(entry.trim())) ? true : { path: ['ip_list'], issue: ClusterMessage.ipSafeList },
    ),
  ),
);
export type IpSafeListBody = typeof IpSafeListBody.Type;

// ---------------------------------------------------------------------------------------------------------------
// Responses

export const ClusterResponse = Schema.Struct({
  id: Schema.Number,
  project_id: Schema.Number,
  name: Schema.String,
  created_at: Schema.String,
  status: Schema.Literals(CLUSTER_STATUSES),
  /** Why a cluster failed (or what it is doing while creating/deleting). */
  status_reason: Schema.NullOr(Schema.String),
  progress: Schema.NullOr(Schema.Struct({ current: Schema.Number, max: Schema.Number })),
  host: Schema.String,
  http_port: Schema.Number,
  tcp_port: Schema.Number,
  secure: Schema.Boolean,
  provider: Schema.Literals(['aws', 'gcp', 'unknown']),
  region: Schema.NullOr(Schema.Struct({ code: Schema.String, name: Schema.String, continent: Schema.String })),
  machine: Schema.NullOr(Machine),
  shards: Schema.Number,
  replicas: Schema.Number,
  disks: Schema.Array(Disk),
  version: Schema.String,
  zonal: Schema.Boolean,
  zones: Schema.Array(Schema.String),
  control_plane_zone: Schema.NullOr(Schema.String),
  is_external: Schema.Boolean,
  ip_safe_list: Schema.Array(Schema.String),
  admin_user: Schema.String,
});
export type ClusterResponse = typeof ClusterResponse.Type;
export const ClusterList = Schema.Array(ClusterResponse);

export const ClusterMetadata = Schema.Struct({
  shards: Schema.Number,
  replicas: Schema.Number,
  nodes: Schema.Array(Schema.Struct({ shard: Schema.Number, shard_weight: Schema.Number, replica: Schema.Number, host: Schema.String })),
  databases: Schema.Array(Schema.String),
});
export type ClusterMetadata = typeof ClusterMetadata.Type;

export const MetricsQuery = Schema.Struct({
  project_id: IdFromString.annotateKey({ messageMissingKey: 'The project id is missing' }),
  start_time: Schema.optionalKey(Schema.NumberFromString),
  end_time: Schema.optionalKey(Schema.NumberFromString),
  /** Comma-separated hosts (host:port) of the metadata; empty = all. */
  nodes: Schema.optionalKey(Schema.String),
  /** Comma-separated databases; empty = all. */
  databases: Schema.optionalKey(Schema.String),
});

export const TimeSeriesPoint = Schema.Struct({
  time: Schema.Number,
  bytes_per_second: Schema.Number,
  written_rows_per_second: Schema.Number,
  read_rows_per_second: Schema.Number,
  average_query_time: Schema.Number,
  average_query_memory: Schema.Number,
});
export const ClusterMetrics = Schema.Struct({
  total_tables: Schema.Number,
  total_rows: Schema.Number,
  disks: Schema.Array(Schema.Struct({ host: Schema.String, free_space: Schema.Number, total_space: Schema.Number, type: Schema.String })),
  time_series_metrics: Schema.Array(TimeSeriesPoint),
});
export type ClusterMetrics = typeof ClusterMetrics.Type;

/** GET integrations/clickhouse/clusters/creation: whether POST may create a cluster now, and with which limits (§5). */
export const ClusterCreation = Schema.Struct({ allowed: Schema.Boolean, has_payment_method: Schema.Boolean });
export type ClusterCreation = typeof ClusterCreation.Type;
