import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Schema } from 'effect';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { expectSchemaAnswer } from '../support/schema-answer';
import { AddTaxIdBody, AttachPaymentMethodBody, CreateBillingAccountBody, SetupPaymentMethodBody } from '../../contract/billing';
import { CreateOrganizationBody } from '../../contract/organizations';
import { InviteBody, ResendInvitationBody } from '../../contract/invitations';
import { AddProjectUserBody, CreateProjectBody } from '../../contract/projects';
import { UpdatePasswordBody, UpdateProfileBody } from '../../contract/users';
import { TelemetryBatch } from '../../contract/telemetry';

type AnySchema = Schema.Top & { readonly DecodingServices: never };

describe.each(databaseTargets())('input validation ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let personal: string;

  beforeAll(async () => {
    api = await startApi(target);
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    personal = await api.tokenFor('dev@example.com');
  });
  afterAll(async () => api?.close());

  // The spec's own messages, exactly, under the field they belong to.
  const RULES: [string, string, string, unknown, Record<string, string[]>][] = [
    ['POST', 'organizations/', 'personal', { display_name: 'a!', billing_account_id: 1 }, {
      display_name: ['Organization name must match A-z 0-9 -_', 'Must be at least 3 characters'],
    }],
    ['POST', 'organizations/', 'personal', { display_name: 'Good name' }, { billing_account_id: ['The billing account id is missing'] }],
    ['POST', 'billing/', 'personal', { name: '  ab  ' }, { name: ['The billing account name must have at least 3 characters'] }],
    ['POST', 'billing/payment-methods/attach', 'personal', {}, {
      billing_account_id: ['The billing account id is missing'],
      payment_method_id: ['The payment method is missing'],
    }],
    ['POST', 'billing/tax-id', 'personal', { billing_account_id: 1, type: '', value: ' ' }, {
      type: ['The tax id type is missing'],
      value: ['The tax id value is missing'],
    }],
    ['POST', 'billing/tax-id', 'personal', { billing_account_id: 1, country: 'US', type: 'eu_vat', value: 'X' }, {
      type: ['This tax id type is not available for the selected country'],
    }],
    ['POST', 'projects/', 'owner', { name: 'ab' }, { name: ['The project name must have at least 3 characters'] }],
    ['POST', 'projects/users', 'owner', { project_id: 1 }, { user_id: ['Please select one user.'] }],
    ['POST', 'organizations/invitations', 'owner', {}, { email: ['Email is required.'] }],
    ['POST', 'organizations/invitations', 'owner', { email: 'not-an-email' }, { email: ['Please enter a valid email address.'] }],
    ['PATCH', 'users', 'personal', { given_name: ' ', family_name: '' }, {
      given_name: ['The first name is required.'],
      family_name: ['The last name is required.'],
    }],
    ['PATCH', 'users/password', 'personal', { password: 'short' }, {
      password: [
        'The new password must have at least 8 characters.',
        'The new password must include at least 1 upper case letter.',
        'The new password must include at least 1 number.',
        'The new password must include at least 1 special character (!@#$%^&*).',
      ],
    }],
  ];

  it.each(RULES)('%s %s (%s) with %j is 422 with the spec messages', async (method, path, who, body, details) => {
    const response = await api.request(method, path, { token: who === 'owner' ? owner : personal, body });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ message: 'Validation error', details });
  });

  it.each([
    ['DELETE', 'organizations/invites', {}, { invite_id: ['You must select one invite to delete.'] }],
    ['GET', 'users/promote', { read_only: 'true' }, { user_id: ['The user id is required.'], organization_id: ['The organization id is required.'] }],
    ['GET', 'projects/users', {}, { project_id: ['The project id is missing'] }],
  ] as [string, string, Record<string, string>, Record<string, string[]>][])('%s %s with query %j is 422', async (method, path, query, details) => {
    const response = await api.request(method, path, { token: owner, query });
    expect(response.status).toBe(422);
    expect(response.body.details).toEqual(details);
  });

  // The integrations' calls follow spec 001 §8: "Schema validation errors return 400 with the fields and flattened
  // errors" — the same body as the account area's 422.
  it('GET integrations/ with a bad project id is 400 with the field message (spec 001)', async () => {
    const response = await api.request('GET', 'integrations/', { token: owner, query: { project_id: '0' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: 'Validation error', details: { project_id: ['Must be a positive id'] } });
  });

  it('malformed JSON, a non-object body and wrong JSON types are 400 {message, description}', async () => {
    for (const rawBody of ['{"name": ', 'null', '[1,2]', '"text"', '42']) {
      const response = await api.request('POST', 'projects/', { token: owner, rawBody });
      expect(response.status, rawBody).toBe(400);
      expect(response.body).toMatchObject({ message: expect.any(String), description: expect.any(String) });
    }
    const wrongType = await api.request('POST', 'billing/payment-methods/setup', { token: personal, body: { billing_account_id: 'one' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details).toEqual({ billing_account_id: ['Expected number'] });
  });

  it('an id beyond the database range is refused, not a server error', async () => {
    const response = await api.request('GET', 'integrations/', { token: owner, query: { project_id: '99999999999' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: 'Validation error', details: { project_id: ['Unknown id'] } });
  });

  // Property: for any JSON a client could send, the API never answers 5xx; whatever the contract schema rejects is
  // answered 400 (shape) or 422 (rules) with exactly the schema's field messages.
  const anyJson = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.constant(undefined));
  const fieldsOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
    fc.record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, fc.oneof(a, anyJson)])), { requiredKeys: [] });
  const id = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(1), fc.constant(2 ** 31), fc.double());
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', '   ', 'Valid Name', 'a@b.co', 'Abcdef1!'));

  const BODIES: [string, string, 'owner' | 'personal', AnySchema, fc.Arbitrary<unknown>][] = [
    ['POST', 'projects/', 'owner', CreateProjectBody, fieldsOf({ name: text })],
    ['POST', 'billing/', 'personal', CreateBillingAccountBody, fieldsOf({ name: text, default: fc.boolean() })],
    ['POST', 'organizations/', 'personal', CreateOrganizationBody, fieldsOf({ display_name: text, billing_account_id: id })],
    ['POST', 'organizations/invitations', 'owner', InviteBody, fieldsOf({ email: text, read_only: fc.boolean(), project_ids: fc.array(id, { maxLength: 3 }) })],
    ['PATCH', 'organizations/invitations', 'owner', ResendInvitationBody, fieldsOf({ id })],
    ['PATCH', 'users', 'personal', UpdateProfileBody, fieldsOf({ given_name: text, family_name: text, name: text })],
    ['PATCH', 'users/password', 'personal', UpdatePasswordBody, fieldsOf({ password: text })],
    ['POST', 'billing/tax-id', 'personal', AddTaxIdBody, fieldsOf({ billing_account_id: id, country: fc.constantFrom('US', 'DE', 'XX', 'au'), type: fc.constantFrom('eu_vat', 'us_ein', 'au_abn', 'nope', ''), value: text })],
    ['POST', 'billing/payment-methods/setup', 'personal', SetupPaymentMethodBody, fieldsOf({ billing_account_id: id })],
    ['POST', 'billing/payment-methods/attach', 'personal', AttachPaymentMethodBody, fieldsOf({ billing_account_id: id, payment_method_id: text })],
    ['POST', 'projects/users', 'owner', AddProjectUserBody, fieldsOf({ user_id: fc.oneof(text, fc.uuid()), project_id: id })],
    ['POST', 'telemetry', 'personal', TelemetryBatch, fieldsOf({ events: fc.array(fieldsOf({ name: text, timestamp: fc.integer() }), { maxLength: 60 }) })],
  ];

  it.each(BODIES)('property: %s %s never answers 5xx and reports exactly the schema errors', async (method, path, who, schema, arbitrary) => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (body) => {
        // What travels is JSON: keys holding undefined disappear on the way, so judge the text that was sent.
        const sent = JSON.stringify(body ?? null);
        const response = await api.request(method, path, { token: who === 'owner' ? owner : personal, rawBody: sent });
        expectSchemaAnswer(response, schema, sent);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 40) },
    );
  });

  it('property: query parameters of any text never cause a 5xx', async () => {
    const calls: [string, string, string][] = [
      ['GET', 'projects/users', 'project_id'],
      ['GET', 'integrations/', 'project_id'],
      ['GET', 'integrations/qryn/trial', 'project_id'],
      ['DELETE', 'organizations/invites', 'invite_id'],
      ['GET', 'users/promote', 'user_id'],
      ['GET', 'stripe/billing-account-id', 'name'],
      ['DELETE', 'billing/tax-id', 'tax_id'],
      ['DELETE', 'billing/tax-id', 'billing_account_id'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...calls), fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('1e3', '0x10', '-0', ' 7 ', 'NaN', '1.5')), async ([method, path, key], value) => {
        const response = await api.request(method, path, { token: owner, query: { [key]: value } });
        expect(response.status).toBeLessThan(500);
        expect(response.body).toBeTypeOf('object');
      }),
      { numRuns: 3 * Number(process.env.FC_RUNS ?? 40) },
    );
  });

  it('property: path segments of any text never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), async (segment) => {
        const encoded = encodeURIComponent(segment);
        for (const path of [`organizations/user/${encoded}`, `integrations/${encoded}/trial`, `organizations/invitations/${encoded}/resend`]) {
          const response = await api.request(path.startsWith('organizations/user') ? 'DELETE' : path.endsWith('resend') ? 'POST' : 'GET', path, {
            token: owner,
            query: { project_id: 1 },
          });
          expect(response.status, path).toBeLessThan(500);
        }
      }),
      { numRuns: Math.round(1.5 * Number(process.env.FC_RUNS ?? 40)) },
    );
  });
});
