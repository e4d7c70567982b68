// The shell's first reads are checked by hand (src/services/wire-checks.ts) instead of by the contract schemas. On
// generated values (valid answers, the same answers with one part broken, and anything at all) the check and the
// schema must agree: what one accepts the other accepts, with the same output (extra keys dropped), and what one
// refuses the other refuses.
import { Schema } from 'effect';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTEGRATION_STATUSES, IntegrationCancellationResponse, IntegrationList, IntegrationTrialResponse } from '../../contract/integrations';
import { OrganizationList, OrganizationTrialResponse } from '../../contract/organizations';
import { UserProductList } from '../../contract/products';
import { ProjectList } from '../../contract/projects';
import {
  integrationCancellation,
  integrationList,
  integrationTrial,
  organizationList,
  organizationTrial,
  projectList,
  userProductList,
  WireCheckError,
  type WireCheck,
} from '../../src/services/wire-checks';

// Valid wire values, written from the contract's fields (numbers include NaN and the infinities: JSON has none, but
// the two decoders must still agree on them).
const num = fc.oneof(fc.integer(), fc.double());
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields);
const strings = fc.array(fc.string(), { maxLength: 3 });
const product = { id: num, name: fc.string(), slug: fc.string(), description: fc.string(), is_available: fc.boolean(), tags: strings, dependencies: strings };

const valid = {
  projects: fc.array(record({ id: num, name: fc.string(), organization_id: nullable(num), user_id: fc.string(), billing_account_id: nullable(num), slug: fc.string(), owner: fc.boolean() }), { maxLength: 3 }),
  organizations: fc.array(record({ id: num, name: fc.string(), read_only: fc.boolean(), owner: fc.boolean() }), { maxLength: 3 }),
  integrations: fc.array(
    record({
      id: num,
      project_id: num,
      created_at: fc.string(),
      creator_name: fc.string(),
      status: fc.constantFrom(...INTEGRATION_STATUSES),
      product: record(product),
      user: nullable(record({ id: nullable(fc.string()), given_name: fc.string(), family_name: fc.string(), email: fc.string() })),
      is_user_active: fc.boolean(),
      is_available: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  userProducts: fc.array(record({ ...product, projects: fc.array(record({ id: num, name: fc.string(), slug: fc.string(), status: fc.string() }), { maxLength: 2 }) }), { maxLength: 2 }),
  organizationTrial: record({ remaining_days: num, trial_ends_at: nullable(fc.string()) }),
  integrationTrial: record({ remaining_days: num }),
  integrationCancellation: record({ cancellation_date_timestamp: nullable(num) }),
};

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => pathsOf((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

type Change = { kind: 'replace'; by: unknown } | { kind: 'delete' } | { kind: 'extra'; key: string; by: unknown };

function changed(value: unknown, path: Path, change: Change): unknown {
  if (path.length === 0) {
    if (change.kind === 'replace') return change.by;
    if (change.kind === 'extra' && value !== null && typeof value === 'object' && !Array.isArray(value)) return { ...value, [change.key]: change.by };
    return value;
  }
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  if (rest.length === 0 && change.kind === 'delete') {
    if (Array.isArray(copy)) (copy as unknown[]).splice(head as number, 1);
    else delete copy[head!];
    return copy;
  }
  copy[head!] = changed(copy[head!], rest, change);
  return copy;
}

/** A valid value with one part replaced by anything, removed, or given an extra key. */
const broken = (arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.chain((value) => {
    const paths = pathsOf(value);
    const change: fc.Arbitrary<Change> = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), by: fc.anything() }),
      fc.record({ kind: fc.constant('delete' as const) }),
      fc.record({ kind: fc.constant('extra' as const), key: fc.string(), by: fc.anything() }),
    );
    return fc.tuple(fc.constantFrom(...paths), change).map(([path, how]) => changed(value, path, how));
  });

function outcome<T>(run: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: run() };
  } catch {
    return { ok: false };
  }
}

const cases: [string, Schema.Top & { readonly DecodingServices: never }, WireCheck<unknown>, fc.Arbitrary<unknown>][] = [
  ['projects', ProjectList, projectList, valid.projects],
  ['organizations', OrganizationList, organizationList, valid.organizations],
  ['integrations', IntegrationList, integrationList, valid.integrations],
  ['products in use', UserProductList, userProductList, valid.userProducts],
  ['organization trial', OrganizationTrialResponse, organizationTrial, valid.organizationTrial],
  ['integration trial', IntegrationTrialResponse, integrationTrial, valid.integrationTrial],
  ['integration cancellation', IntegrationCancellationResponse, integrationCancellation, valid.integrationCancellation],
];

describe('first-read checks agree with the contract schemas', () => {
  for (const [name, schema, check, arbitrary] of cases) {
    const decode = Schema.decodeUnknownSync(schema as never);
    it(`${name}: valid, broken and arbitrary answers`, () => {
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(fc.oneof(arbitrary, broken(arbitrary), fc.anything()), (input) => {
          const bySchema = outcome(() => decode(input));
          const byCheck = outcome(() => check(input));
          expect(byCheck.ok).toBe(bySchema.ok);
          if (bySchema.ok && byCheck.ok) {
            expect(byCheck.value).toStrictEqual(bySchema.value);
            accepted += 1;
          } else refused += 1;
        }),
        { numRuns: 400 },
      );
      // Both sides of the boundary were exercised.
      expect(accepted).toBeGreaterThan(20);
      expect(refused).toBeGreaterThan(20);
    });
  }

  it('a refusal names where the answer went wrong', () => {
    expect(() => projectList([{ id: 1 }])).toThrow(WireCheckError);
    expect(() => projectList([{ id: 1 }])).toThrow('[0].name: expected a value (the key is missing)');
    expect(() => integrationList([{ status: 'gone' }])).toThrow(/\[0\]\.id/);
  });
});
