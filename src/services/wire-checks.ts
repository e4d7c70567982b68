// Hand-written checks of the answers the shell and the overview read first (projects, organizations, integrations,
// the products in use, trial days). They accept and return exactly what the contract schemas do (extra keys dropped,
// keys in the schema's order; tests/unit/wire-checks.test.ts compares both on generated values), so the first paint
// needs no schema library: effect Schema is loaded with the first form or the first other read.
import type { IntegrationCancellationResponse, IntegrationList, IntegrationTrialResponse } from '../../contract/integrations';
import type { OrganizationList, OrganizationTrialResponse } from '../../contract/organizations';
import type { UserProductList } from '../../contract/products';
import type { ProjectList } from '../../contract/projects';
import { INTEGRATION_STATUSES } from '../../contract/integration-statuses';

/** Checks an unknown value and returns it (objects rebuilt with only their known keys) or throws WireCheckError. */
export type WireCheck<T> = (input: unknown, path?: string) => T;

export class WireCheckError extends Error {
  override name = 'WireCheckError';
}

function fail(path: string, expected: string): never {
  throw new WireCheckError(`${path || 'the answer'}: expected ${expected}`);
}

const primitive =
  <T>(type: 'string' | 'number' | 'boolean'): WireCheck<T> =>
  (input, path = '') =>
    typeof input === type ? (input as T) : fail(path, `a ${type}`);

export const string = primitive<string>('string');
export const number = primitive<number>('number');
export const boolean = primitive<boolean>('boolean');

export const nullOr =
  <T>(check: WireCheck<T>): WireCheck<T | null> =>
  (input, path = '') =>
    input === null ? null : check(input, path);

export const literals =
  <const L extends readonly string[]>(values: L): WireCheck<L[number]> =>
  (input, path = '') =>
    values.includes(input as string) ? (input as L[number]) : fail(path, `one of ${values.join(', ')}`);

export const array =
  <T>(item: WireCheck<T>): WireCheck<T[]> =>
  (input, path = '') => {
    if (!Array.isArray(input)) return fail(path, 'an array');
    return input.map((value, index) => item(value, `${path}[${index}]`));
  };

type StructOf<F extends Record<string, WireCheck<unknown>>> = { [K in keyof F]: ReturnType<F[K]> };

export const struct =
  <F extends Record<string, WireCheck<unknown>>>(fields: F): WireCheck<StructOf<F>> =>
  (input, path = '') => {
    if (typeof input !== 'object' || input === null) return fail(path, 'an object');
    const record = input as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    for (const key of Object.keys(fields)) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) fail(`${path}.${key}`, 'a value (the key is missing)');
      output[key] = fields[key]!(record[key], `${path}.${key}`);
    }
    return output as StructOf<F>;
  };

// The shapes, field by field as contract/*.ts declares them.
const projectFields = {
  id: number,
  name: string,
  organization_id: nullOr(number),
  user_id: string,
  billing_account_id: nullOr(number),
  slug: string,
  owner: boolean,
};
const productFields = {
  id: number,
  name: string,
  slug: string,
  description: string,
  is_available: boolean,
  tags: array(string),
  dependencies: array(string),
};

export const projectList: WireCheck<typeof ProjectList.Type> = array(struct(projectFields));

export const organizationList: WireCheck<typeof OrganizationList.Type> = array(struct({ id: number, name: string, read_only: boolean, owner: boolean }));

export const integrationList: WireCheck<typeof IntegrationList.Type> = array(
  struct({
    id: number,
    project_id: number,
    created_at: string,
    creator_name: string,
    status: literals(INTEGRATION_STATUSES),
    product: struct(productFields),
    user: nullOr(struct({ id: nullOr(string), given_name: string, family_name: string, email: string })),
    is_user_active: boolean,
    is_available: boolean,
  }),
);

export const userProductList: WireCheck<typeof UserProductList.Type> = array(
  struct({ ...productFields, projects: array(struct({ id: number, name: string, slug: string, status: string })) }),
);

export const organizationTrial: WireCheck<typeof OrganizationTrialResponse.Type> = struct({ remaining_days: number, trial_ends_at: nullOr(string) });

export const integrationTrial: WireCheck<typeof IntegrationTrialResponse.Type> = struct({ remaining_days: number });

export const integrationCancellation: WireCheck<typeof IntegrationCancellationResponse.Type> = struct({ cancellation_date_timestamp: nullOr(number) });
