// Issue 16 item 7: every stored name has a maximum length, and names made of control characters, text-direction
// characters or nothing visible are refused with the field's message: property-based against the API (both
// databases) and the contract's rule, plus the database's own limit.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameTextProblem, TEXT_LIMITS, tooLongMessage } from '../../contract/text-rules';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

const BIDI = ['\u202e', '\u202d', '\u202a', '\u202b', '\u202c', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
// (U+FEFF is left out: the schemas trim it like a space, so it leaves an empty name with the minimum's message.)
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\u3164', '\u2800', '\u180e'];
const CONTROL = ['\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', '\t', '\n', '\r'];

const visibleText = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789éüßжשع李'), minLength: min, maxLength: max });
/** A visible name with one bad character put inside it (at the ends the schemas trim spaces and newlines away). */
const withOne = (chars: string[]) =>
  fc.tuple(visibleText(3, 20), fc.constantFrom(...chars), fc.nat()).map(([text, bad, at]) => {
    const i = 1 + (at % (text.length - 1));
    return text.slice(0, i) + bad + text.slice(i);
  });
const invisibleOnly = fc.array(fc.constantFrom(...INVISIBLE), { minLength: 3, maxLength: 12 }).map((chars) => chars.join(''));

describe('the character rule (contract/text-rules.ts, used by the console and the API alike)', () => {
  it('accepts visible names in any script', () => {
    fc.assert(fc.property(visibleText(1, 60), (text) => nameTextProblem(text, 'The name') === null));
    expect(nameTextProblem('Zoë O’Neil-Smith', 'The name')).toBeNull();
    expect(nameTextProblem('שלום עולם', 'The name')).toBeNull();
    expect(nameTextProblem('👩‍💻 team', 'The name')).toBeNull();
  });
  it('refuses any control or text-direction character anywhere, and names with nothing visible', () => {
    fc.assert(fc.property(withOne(CONTROL), (text) => nameTextProblem(text, 'The name') === 'The name cannot contain control characters'));
    fc.assert(fc.property(withOne(BIDI), (text) => nameTextProblem(text, 'The name') === 'The name cannot contain text-direction characters'));
    fc.assert(fc.property(invisibleOnly, (text) => nameTextProblem(text, 'The name') === 'The name must contain visible characters'));
  });
});

describe.each(databaseTargets())('names and sizes at the API ($kind)', (target) => {
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

  // [method, path, who, body builder, field, label, maximum]
  const FIELDS: [string, string, 'owner' | 'personal', (value: string) => unknown, string, string, number][] = [
    ['POST', 'projects/', 'owner', (name) => ({ name }), 'name', 'The project name', TEXT_LIMITS.projectName],
    ['POST', 'billing/', 'personal', (name) => ({ name }), 'name', 'The billing account name', TEXT_LIMITS.billingAccountName],
    ['PATCH', 'users', 'personal', (given_name) => ({ given_name, family_name: 'Valid' }), 'given_name', 'The first name', TEXT_LIMITS.personName],
    ['PATCH', 'users', 'personal', (family_name) => ({ given_name: 'Valid', family_name }), 'family_name', 'The last name', TEXT_LIMITS.personName],
    ['POST', 'billing/tax-id', 'personal', (value) => ({ billing_account_id: 1, type: 'us_ein', value }), 'value', 'The tax id value', TEXT_LIMITS.taxIdValue],
  ];

  it.each(FIELDS)('property: %s %s (%s) refuses a bad %s with its message, storing nothing', async (method, path, who, body, field, label, max) => {
    const token = who === 'owner' ? owner : personal;
    const bad = fc.oneof(
      visibleText(max + 1, max + 300).map((text) => ({ text, message: tooLongMessage(max) })),
      withOne(CONTROL).map((text) => ({ text, message: `${label} cannot contain control characters` })),
      withOne(BIDI).map((text) => ({ text, message: `${label} cannot contain text-direction characters` })),
      invisibleOnly.map((text) => ({ text, message: `${label} must contain visible characters` })),
    );
    const counts = async () =>
      (await api.db.query<{ n: number }>('SELECT (SELECT count(*) FROM projects)::int + (SELECT count(*) FROM billing_accounts)::int + (SELECT count(*) FROM tax_ids)::int AS n'))[0].n;
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(bad, async ({ text, message }) => {
        const response = await api.request(method, path, { token, body: body(text) });
        expect(response.status).toBe(422);
        expect(response.body.details?.[field]).toContain(message);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 30) },
    );
    expect(await counts()).toBe(before);
  });

  it('a project name of exactly the maximum is stored and read back whole', async () => {
    const name = `P${'x'.repeat(TEXT_LIMITS.projectName - 1)}`;
    const created = await api.request('POST', 'projects/', { token: owner, body: { name } });
    expect(created.status).toBe(201);
    const [row] = await api.db.query<{ name: string }>('SELECT name FROM projects WHERE id = $1', [created.body.id]);
    expect(row.name).toBe(name);
  });

  it('an organization name over its maximum is refused', async () => {
    const response = await api.request('POST', 'organizations/', { token: personal, body: { display_name: 'A'.repeat(TEXT_LIMITS.organizationName + 1), billing_account_id: 1 } });
    expect(response.status).toBe(422);
    expect(response.body.details.display_name).toContain(tooLongMessage(TEXT_LIMITS.organizationName));
  });

  it('the database refuses an over-long name written around the API', async () => {
    const [project] = await api.db.query<{ id: number }>('SELECT id FROM projects LIMIT 1');
    await expect(api.db.query('UPDATE projects SET name = $2 WHERE id = $1', [project.id, 'x'.repeat(TEXT_LIMITS.projectName + 1)])).rejects.toThrow(/projects_name_length/);
    const [user] = await api.db.query<{ id: string }>('SELECT id FROM users LIMIT 1');
    await expect(api.db.query('UPDATE users SET family_name = $2 WHERE id = $1', [user.id, 'x'.repeat(TEXT_LIMITS.personName + 1)])).rejects.toThrow(/users_family_name_length/);
  });
});
