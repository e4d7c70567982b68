import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeInput } from '../../contract/common';
import {
  ClusterMessage,
  CreateExternalClusterBody,
  IpSafeListBody,
  createClusterBody,
  defaultClusterForm,
  diskLevel,
  estimateMonthlyCost,
  formatBytes,
  toFormFieldErrors,
  validateCreateCluster,
  type CreateClusterBody,
} from '../../contract/clickhouse';

const valid = (over: Partial<CreateClusterBody> = {}): CreateClusterBody => ({
  ...defaultClusterForm('aws', 'gp3'),
  region_code: 'eu-central-1',
  version: '18.16',
  admin_user: 'admin_one',
  admin_password: 'Secret123',
  confirm_password: 'Secret123',
  ...over,
});
const paid = { hasPaymentMethod: true };
const trial = { hasPaymentMethod: false };
const errorsOf = (body: CreateClusterBody, limits = paid) => validateCreateCluster(body, limits);

describe('managed cluster rules (spec §5), one case per message', () => {
  it('accepts the default trial cluster with and without a payment method', () => {
    expect(errorsOf(valid(), trial)).toEqual({});
    expect(errorsOf(valid(), paid)).toEqual({});
  });

  it.each([
    ['', ClusterMessage.nameRequired],
    ['a-very-long-name-x', ClusterMessage.nameTooLong],
    ['1abc', ClusterMessage.namePattern],
    ['abc-', ClusterMessage.namePattern],
    ['Abc', ClusterMessage.namePattern],
    ['ab_c', ClusterMessage.namePattern],
  ])('name %j → %s', (name, message) => {
    expect(errorsOf(valid({ name })).name).toEqual([message]);
  });

  it('accepts names of 1 and 15 characters', () => {
    expect(errorsOf(valid({ name: 'a' })).name).toBeUndefined();
    expect(errorsOf(valid({ name: 'abcdefghij-1234' })).name).toBeUndefined();
  });

  it('provider, region, machine and version', () => {
    expect(errorsOf(valid({ provider: 'azure' })).provider).toEqual([ClusterMessage.provider]);
    expect(errorsOf(valid({ region_code: '' })).region_code).toEqual([ClusterMessage.regionRequired]);
    expect(errorsOf(valid({ machine: '' })).machine).toEqual([ClusterMessage.machineRequired]);
    expect(errorsOf(valid({ version: ' ' })).version).toEqual([ClusterMessage.versionRequired]);
  });

  it('disks: at least one, unique names, name rule, first fixed, size and decimals', () => {
    expect(errorsOf(valid({ disks: [] })).disks).toEqual([ClusterMessage.diskRequired]);
    const d = (name: string, size = 150, type = 'gp3') => ({ name, type, size, unit_type: 'Decimal' as const });
    expect(errorsOf(valid({ disks: [d('default'), d('logs'), d('logs')] }))).toMatchObject({
      disks: [ClusterMessage.diskNamesUnique],
      'disks.2.name': [ClusterMessage.diskNamesUnique],
    });
    expect(errorsOf(valid({ disks: [d('default'), d('Logs')] }))['disks.1.name']).toEqual([ClusterMessage.diskNamePattern]);
    expect(errorsOf(valid({ disks: [d('default'), d('logs_')] }))['disks.1.name']).toEqual([ClusterMessage.diskNamePattern]);
    expect(errorsOf(valid({ disks: [d('data')] }))['disks.0.name']).toEqual([ClusterMessage.diskFirstFixed]);
    expect(errorsOf(valid({ disks: [d('default', 9.99)] }))['disks.0.size']).toEqual([ClusterMessage.diskSizeMin]);
    expect(errorsOf(valid({ disks: [d('default', 10.123)] }))['disks.0.size']).toEqual([ClusterMessage.diskSizeDecimals]);
    expect(errorsOf(valid({ disks: [d('default', 10.12)] }))['disks.0.size']).toBeUndefined();
    expect(errorsOf(valid({ disks: [d('default', 150, '')] }))['disks.0.type']).toEqual([ClusterMessage.diskTypeRequired]);
  });

  it('st1 needs 150 GB and gp2 5 GB per node (shards x replicas)', () => {
    const disk = (type: string, size: number, unit_type: 'Decimal' | 'Binary' = 'Decimal') => [{ name: 'default', type, size, unit_type }];
    expect(errorsOf(valid({ shards: 2, replicas: 2, disks: disk('st1', 599) }))['disks.0.size']).toEqual([ClusterMessage.diskSt1PerNode]);
    expect(errorsOf(valid({ shards: 2, replicas: 2, disks: disk('st1', 600) }))['disks.0.size']).toBeUndefined();
    expect(errorsOf(valid({ shards: 3, replicas: 1, disks: disk('gp2', 14) }))['disks.0.size']).toEqual([ClusterMessage.diskGp2PerNode]);
    // 14 GiB is 15.03 GB: enough for 3 nodes of gp2.
    expect(errorsOf(valid({ shards: 3, replicas: 1, disks: disk('gp2', 14, 'Binary') }))['disks.0.size']).toBeUndefined();
  });

  it('shards and replicas: integers, at least 1, at most 999 with a payment method, 1 and 2 without', () => {
    expect(errorsOf(valid({ shards: 1.5 })).shards).toEqual([ClusterMessage.shardsInteger]);
    expect(errorsOf(valid({ shards: 0 })).shards).toEqual([ClusterMessage.shardsMin]);
    expect(errorsOf(valid({ shards: 1000 })).shards).toEqual([ClusterMessage.shardsMax(999)]);
    expect(errorsOf(valid({ shards: 999 })).shards).toBeUndefined();
    expect(errorsOf(valid({ shards: 2 }), trial).shards).toEqual([ClusterMessage.shardsMax(1)]);
    expect(errorsOf(valid({ replicas: 2.5 })).replicas).toEqual([ClusterMessage.replicasInteger]);
    expect(errorsOf(valid({ replicas: 0 })).replicas).toEqual([ClusterMessage.replicasMin]);
    expect(errorsOf(valid({ replicas: 1000 })).replicas).toEqual([ClusterMessage.replicasMax(999)]);
    expect(errorsOf(valid({ replicas: 3 }), trial).replicas).toEqual([ClusterMessage.replicasMax(2)]);
    expect(errorsOf(valid({ replicas: 3 }), paid).replicas).toBeUndefined();
  });

  it('trial accounts keep the default machine and the single default disk', () => {
    expect(errorsOf(valid({ machine: 'm5_xlarge' }), trial).machine).toEqual([ClusterMessage.trialDefaultOnly]);
    expect(errorsOf(valid({ machine: 'm5_xlarge' }), paid).machine).toBeUndefined();
    const disks = [{ name: 'default', type: 'gp3', size: 200, unit_type: 'Decimal' as const }];
    expect(errorsOf(valid({ disks }), trial).disks).toEqual([ClusterMessage.trialDefaultOnly]);
  });

  it('admin user and password', () => {
    expect(errorsOf(valid({ admin_user: 'adm' })).admin_user).toEqual([ClusterMessage.adminUserTooShort]);
    for (const reserved of ['default', 'Grafana', 'clickhouse', 'platform_internal', 'Platform_Internal']) expect(errorsOf(valid({ admin_user: reserved })).admin_user).toEqual([ClusterMessage.adminUserNotAllowed]);
    expect(errorsOf(valid({ admin_user: 'ad<min>' })).admin_user).toEqual([ClusterMessage.adminUserPattern]);
    expect(errorsOf(valid({ admin_password: 'short', confirm_password: 'short' })).admin_password).toEqual([ClusterMessage.adminPasswordTooShort]);
    expect(errorsOf(valid({ confirm_password: 'Secret1234' })).confirm_password).toEqual([ClusterMessage.passwordMismatch]);
    // Eight characters are not enough when they are the first guesses of every password list.
    for (const common of ['password', 'Password1', '12345678', 'qwertyuiop', 'iloveyou', 'clickhouse']) {
      expect(errorsOf(valid({ admin_password: common, confirm_password: common })).admin_password, common).toEqual([ClusterMessage.adminPasswordCommon]);
    }
    expect(errorsOf(valid({ admin_user: 'analytics', admin_password: 'Analytics', confirm_password: 'Analytics' })).admin_password).toEqual([ClusterMessage.adminPasswordIsUser]);
    expect(errorsOf(valid({ admin_password: 'Secret123', confirm_password: 'Secret123' })).admin_password).toBeUndefined();
  });

  it('IP safe list: comma-separated IPv4 with optional /0-32, empty allows all', () => {
    expect(errorsOf(valid({ ip_safe_list: '' })).ip_safe_list).toBeUndefined();
    expect(errorsOf(valid({ ip_safe_list: '10.0.0.1, 192.168.0.0/16,0.0.0.0/0' })).ip_safe_list).toBeUndefined();
    for (const bad of ['10.0.0.256', '10.0.0.1/33', 'example.com', '10.0.0.1,', '::1']) {
      expect(errorsOf(valid({ ip_safe_list: bad })).ip_safe_list, bad).toEqual([ClusterMessage.ipSafeList]);
    }
  });

  it('gcp zones: at least one, shards a multiple of the zone count, control plane among them; aws has none', () => {
    const gcp = (over: Partial<CreateClusterBody>) => valid({ provider: 'gcp', machine: 'n2_standard_2', region_code: 'europe-west1', ...over });
    expect(errorsOf(gcp({ zones: [] })).zones).toEqual([ClusterMessage.zonesRequired]);
    expect(errorsOf(gcp({ zones: ['a', 'b'], shards: 3, control_plane_zone: 'a' })).zones).toEqual([ClusterMessage.zonesMultiple]);
    expect(errorsOf(gcp({ zones: ['a', 'b'], shards: 4, control_plane_zone: 'a' }))).toEqual({});
    expect(errorsOf(gcp({ zones: ['a', 'b'], shards: 2, control_plane_zone: 'c' })).control_plane_zone).toEqual([ClusterMessage.controlPlaneZone]);
    expect(errorsOf(gcp({ zones: ['a'], control_plane_zone: null })).control_plane_zone).toEqual([ClusterMessage.controlPlaneZone]);
    expect(errorsOf(valid({ zones: ['a'] })).zones).toEqual([ClusterMessage.zonesOnlyGcp]);
  });

  it('maps wire fields to the spec form fields', () => {
    expect(toFormFieldErrors({ region_code: ['x'], control_plane_zone: ['y'], 'disks.0.size': ['z'], confirm_password: ['w'] })).toEqual({
      region: ['x'],
      controlPlaneZone: ['y'],
      'disks.0.size': ['z'],
      confirmPassword: ['w'],
    });
  });
});

describe('the create schema', () => {
  it('reports every broken rule at once as a rule failure (field messages), and wrong types as a shape failure', () => {
    const outcome = decodeInput(createClusterBody(paid), valid({ name: '', admin_user: 'x', confirm_password: 'nope' }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.shape).toBe(false);
    expect(Object.keys(outcome.errors).sort()).toEqual(['admin_user', 'confirm_password', 'name']);
    const shape = decodeInput(createClusterBody(paid), { ...valid(), shards: 'two' });
    expect(shape.ok === false && shape.shape).toBe(true);
  });

  it('property: the schema accepts exactly the bodies the rules accept, and never throws', () => {
    const disk = fc.record({
      name: fc.constantFrom('default', 'logs', 'data_1', 'Bad', '', 'x_'),
      type: fc.constantFrom('gp3', 'gp2', 'st1', ''),
      size: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double({ min: 0, max: 2000, noNaN: true }), fc.constant(150)),
      unit_type: fc.constantFrom('Binary' as const, 'Decimal' as const),
    });
    const body = fc.record({
      name: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('default', 'prod-1', 'a')),
      provider: fc.constantFrom('aws', 'gcp', 'azure', ''),
      region_code: fc.constantFrom('eu-central-1', 'europe-west1', ''),
      machine: fc.constantFrom('m5_large', 'n2_standard_2', 'm5_xlarge', ''),
      version: fc.constantFrom('18.16', ''),
      shards: fc.oneof(fc.integer({ min: -2, max: 1200 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
      replicas: fc.oneof(fc.integer({ min: -2, max: 1200 }), fc.constant(2)),
      disks: fc.array(disk, { maxLength: 4 }),
      zones: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
      control_plane_zone: fc.constantFrom(null, 'a', 'd'),
      ip_safe_list: fc.oneof(fc.string(), fc.constantFrom('', '10.0.0.1/8', '1.2.3.4,5.6.7.8')),
      admin_user: fc.oneof(fc.string(), fc.constantFrom('admin_one', 'default')),
      admin_password: fc.constantFrom('Secret123', 'short'),
      confirm_password: fc.constantFrom('Secret123', 'short', ''),
    });
    fc.assert(
      fc.property(body, fc.boolean(), (input, hasPaymentMethod) => {
        const limits = { hasPaymentMethod };
        const outcome = decodeInput(createClusterBody(limits), input);
        const expected = validateCreateCluster(input as CreateClusterBody, limits);
        if (Object.keys(expected).length === 0) return outcome.ok;
        return !outcome.ok && !outcome.shape && JSON.stringify(Object.keys(outcome.errors).sort()) === JSON.stringify(Object.keys(expected).sort());
      }),
      { numRuns: 400 },
    );
  });
});

describe('external cluster and IP safe list bodies', () => {
  const external = { is_external: true, name: 'ext', host: '127.0.0.1', http_port: 8123, tcp_port: 9000, secure: false, username: 'u', password: 'p' };
  it('accepts a complete body and names each missing field', () => {
    expect(decodeInput(CreateExternalClusterBody, external).ok).toBe(true);
    const outcome = decodeInput(CreateExternalClusterBody, { ...external, name: '', host: ' ', http_port: 0, tcp_port: 70000, username: '', password: '' });
    expect(outcome.ok === false && outcome.errors).toEqual({
      name: [ClusterMessage.nameRequired],
      host: [ClusterMessage.hostRequired],
      http_port: [ClusterMessage.portInvalid],
      tcp_port: [ClusterMessage.portInvalid],
      username: [ClusterMessage.usernameRequired],
      password: [ClusterMessage.passwordRequired],
    });
  });
  it('checks every IP of the safe list update', () => {
    expect(decodeInput(IpSafeListBody, { replace: true, ip_list: [] }).ok).toBe(true);
    const outcome = decodeInput(IpSafeListBody, { replace: false, ip_list: ['1.2.3.4', 'nope'] });
    expect(outcome.ok === false && outcome.errors).toEqual({ ip_list: [ClusterMessage.ipSafeList] });
  });
});

describe('§9 constants', () => {
  it('estimates the monthly cost: machine x shards x replicas plus disk rate x bytes', () => {
    const cost = estimateMonthlyCost({
      machine: { monthly_cost: 70 },
      shards: 2,
      replicas: 3,
      disks: [
        { type: 'gp3', size: 100, unit_type: 'Decimal' },
        { type: 'st1', size: 1, unit_type: 'Binary' },
      ],
      diskTypes: [
        { name: 'gp3', monthly_rate_price: 0.1e-9 },
        { name: 'st1', monthly_rate_price: 0.05e-9 },
      ],
    });
    expect(cost).toBeCloseTo(70 * 6 + 100 * 0.1 + 1.073741824 * 0.05, 2);
  });
  it('formats sizes in steps of 1000 or 1024, TB above 999 GB', () => {
    expect(formatBytes(999e9)).toBe('999 GB');
    expect(formatBytes(1000e9)).toBe('1 TB');
    expect(formatBytes(999.999e9)).toBe('1 TB');
    expect(formatBytes(1.073741824e9, 'Binary')).toBe('1 GiB');
    expect(formatBytes(1e24)).toBe('1 YB');
    expect(formatBytes(1e27)).toBe('1000 YB');
  });
  it('colours free space: 70% good, 40-69% warn, below 40% bad', () => {
    expect(diskLevel(70, 100)).toBe('good');
    expect(diskLevel(69, 100)).toBe('warn');
    expect(diskLevel(40, 100)).toBe('warn');
    expect(diskLevel(39.9, 100)).toBe('bad');
  });
});
