import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

// Where the platform may open a connection on a user's behalf (an external ClickHouse cluster, Loggen's target).
// The platform sits next to things a customer must never reach through it: its own pages (/dev/outbox), the
// managed clusters' ports, the qryn storage, the cloud's metadata address. So a user-given host must be a plain name
// or address, and every address it resolves to must be public, unless the operator listed its network
// (OUTBOUND_ALLOWED_NETWORKS, e.g. a LAN installation). The check runs again at connect time (see `guardedLookup`),
// so a name that resolves to a public address at save time and to 127.0.0.1 later is still refused.

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'shared'
  | 'own';

export interface AddressRules {
  /** Networks the operator allows although they are not public (CIDR list). */
  allowed: BlockList;
  /** The allowed networks as written, for messages and docs. */
  allowedText: readonly string[];
  /** The platform's own addresses (its interfaces): refused unless in `allowed`. */
  own: () => ReadonlySet<string>;
}

export class AddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressKind,
  ) {
    super(`${host} resolves to ${address}, a ${kind} address that this platform does not connect to.`);
  }
}

// A DNS name: labels of letters, digits and dashes (not at either end), at most 63 characters each, 253 in all.
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** A host as a user may type it: a DNS name or an IPv4/IPv6 address (IPv6 optionally in brackets), nothing else. */
export function parseHost(text: string): { host: string; family: 0 | 4 | 6 } | null {
  const trimmed = text.trim();
  const bare = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  const family = isIP(bare);
  if (family === 4 || family === 6) return { host: bare, family };
  if (bare !== trimmed) return null;
  const name = bare.endsWith('.') ? bare.slice(0, -1) : bare;
  if (name.length === 0 || name.length > 253) return null;
  const labels = name.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  // All-numeric last label would be an IPv4 address in some shorthand (127.1, 0x7f.1): not a name.
  if (/^[0-9]+$/.test(labels[labels.length - 1]) || /^0x/i.test(labels[labels.length - 1])) return null;
  return { host: name, family: 0 };
}

const V4_RANGES: [string, number, AddressKind][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6_RANGES: [string, number, AddressKind][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b::', 96, 'reserved'], // NAT64: would reach an IPv4 address through a translator
  ['64:ff9b:1::', 48, 'reserved'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['2002::', 16, 'reserved'], // 6to4 embeds an IPv4 address
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'],
  ['ff00::', 8, 'multicast'],
];

const RANGE_LISTS = (() => {
  const lists = new Map<AddressKind, BlockList>();
  const add = (kind: AddressKind, address: string, prefix: number, family: 'ipv4' | 'ipv6') => {
    let list = lists.get(kind);
    if (!list) lists.set(kind, (list = new BlockList()));
    list.addSubnet(address, prefix, family);
  };
  for (const [address, prefix, kind] of V4_RANGES) add(kind, address, prefix, 'ipv4');
  for (const [address, prefix, kind] of V6_RANGES) add(kind, address, prefix, 'ipv6');
  return lists;
})();

/** An IPv6 address that carries an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d): the IPv4 address, else null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^::(?:ffff:(?:0:)?)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex && lower !== '::1') {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** What kind of address this is (IPv4-mapped IPv6 addresses are judged by their IPv4 address). */
export function classifyAddress(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  const v4 = family === 4 ? address : embeddedIpv4(address);
  const [subject, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  for (const [kind, list] of RANGE_LISTS) if (list.check(subject, type)) return kind;
  return 'public';
}

/** OUTBOUND_ALLOWED_NETWORKS: comma-separated CIDRs (or single addresses) the operator allows anyway. */
export function createAddressRules(allowedNetworks: readonly string[] = [], own: () => ReadonlySet<string> = interfaceAddresses): AddressRules {
  const allowed = new BlockList();
  for (const entry of allowedNetworks) {
    const [address, prefixText] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
      throw new Error(`OUTBOUND_ALLOWED_NETWORKS must list networks such as 192.168.0.0/16 or 10.1.2.3, separated by commas (got "${entry}").`);
    }
    allowed.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return { allowed, allowedText: [...allowedNetworks], own };
}

export function parseAllowedNetworks(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Every address of this machine's interfaces (cached for a minute: interfaces rarely change). */
let ownCache: { at: number; set: ReadonlySet<string> } | undefined;
export function interfaceAddresses(): ReadonlySet<string> {
  if (ownCache && Date.now() - ownCache.at < 60_000) return ownCache.set;
  const set = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) set.add(entry.address.toLowerCase().split('%')[0]);
  ownCache = { at: Date.now(), set };
  return set;
}

/** Why this address is refused, or null when the platform may connect to it. */
export function refusalOf(address: string, rules: AddressRules): AddressKind | null {
  const family = isIP(address);
  const v4 = family === 4 ? address : embeddedIpv4(address);
  const inAllowed = v4 ? rules.allowed.check(v4, 'ipv4') : rules.allowed.check(address, 'ipv6');
  if (inAllowed) return null;
  const kind = classifyAddress(address);
  if (kind !== 'public') return kind;
  if (rules.own().has(address.toLowerCase()) || (v4 !== null && rules.own().has(v4))) return 'own';
  return null;
}

/** Resolves a host (name or address) and checks every address; throws AddressRefused for the first refused one. */
export async function resolveAllowed(host: string, rules: AddressRules): Promise<LookupAddress[]> {
  const parsed = parseHost(host);
  if (!parsed) throw new Error(`not a host name or address: ${host}`);
  const addresses = parsed.family ? [{ address: parsed.host, family: parsed.family }] : await dnsLookup(parsed.host, { all: true, verbatim: true });
  // Every address must pass: a name with one public and one loopback address would let the connection pick either.
  for (const entry of addresses) {
    const kind = refusalOf(entry.address, rules);
    if (kind) throw new AddressRefused(host, entry.address, kind);
  }
  return addresses;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http/https and net.connect that resolves and checks in one step, so the connection goes to the
 * address that was checked (no second resolution an attacker's DNS could answer differently).
 */
export function guardedLookup(rules: AddressRules) {
  return (hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    resolveAllowed(hostname, rules).then(
      (addresses) => {
        if (typeof options === 'object' && options?.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: error instanceof AddressRefused ? 'EADDRREFUSED' : ((error as NodeJS.ErrnoException).code ?? 'ENOTFOUND') }), '', 0),
    );
  };
}

const RULES_OF_CONFIG = new WeakMap<object, AddressRules>();

/** The platform's rules (its OUTBOUND_ALLOWED_NETWORKS setting), made once per configuration. */
export function outboundRules(config: { outboundAllowedNetworks?: string[] }): AddressRules {
  let rules = RULES_OF_CONFIG.get(config);
  if (!rules) RULES_OF_CONFIG.set(config, (rules = createAddressRules(config.outboundAllowedNetworks ?? [])));
  return rules;
}
