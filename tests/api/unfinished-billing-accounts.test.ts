import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Schema } from 'effect';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { BillingAccountIdResponse, UnfinishedBillingAccountList } from '../../contract/billing';
import { loadConfig } from '../../server/config';
import { setCustomerRef, setPaymentMethod } from '../../server/db/repositories/billing-repository';
import { createJobQueue } from '../../server/jobs/job-queue';
import {
  cleanUpUnfinishedBillingAccounts,
  scheduleUnfinishedBillingCleanup,
  UNFINISHED_CLEANUP_JOB,
} from '../../server/billing/unfinished-billing-accounts';

// Issue 17: a billing account the create-organization wizard opened and never finished can be resumed by its owner
// from any browser, is no one else's business, and is removed after UNFINISHED_BILLING_ACCOUNT_DAYS of business time.
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databaseTargets())('unfinished billing accounts ($kind)', (target) => {
  let api: ApiHarness;
  let nora: string;
  let dana: string;
  let counter = 0;
  const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)} ${++counter}`;

  beforeAll(async () => {
    api = await startApi(target);
    nora = await api.tokenFor('new@example.com');
    dana = await api.tokenFor('dev@example.com');
  });
  afterAll(async () => api?.close());

  const openForOrganization = async (token: string, name: string) => {
    const created = await api.request('POST', 'billing/', { token, body: { name, default: false, for_organization: true } });
    expect(created.status).toBe(201);
    return created.body.billing_account_id as number;
  };
  const check = async (token: string, name: string) => {
    const answer = await api.request('GET', 'stripe/billing-account-id', { token, query: { name } });
    expect(answer.status).toBe(200);
    return Schema.decodeUnknownSync(BillingAccountIdResponse)(answer.body);
  };
  const unfinishedOf = async (token: string) => {
    const answer = await api.request('GET', 'billing/unfinished', { token });
    expect(answer.status).toBe(200);
    return Schema.decodeUnknownSync(UnfinishedBillingAccountList)(answer.body).billing_accounts;
  };

  it("the owner's abandoned wizard account is offered for resuming, by name and in the list, with its removal date", async () => {
    const name = uniqueName('Resume Co');
    const id = await openForOrganization(nora, name);
    expect(await check(nora, name.toUpperCase())).toEqual({ billing_account_id: id, has_payment_method: false, unfinished: true });
    const listed = (await unfinishedOf(nora)).find((account) => account.id === id)!;
    expect(listed).toMatchObject({ name, has_payment_method: false });
    expect(Date.parse(listed.removed_after) - Date.parse(listed.created_at)).toBe(7 * DAY_MS);
    // A second create with the same name is still refused: resuming goes through the account's id.
    const again = await api.request('POST', 'billing/', { token: nora, body: { name, for_organization: true } });
    expect(again.status).toBe(422);
    expect(again.body.details).toEqual({ name: ['You already have a billing account with this name.'] });
  });

  it("never pays for the personal account, so the cleanup cannot remove the personal account's payer", async () => {
    const before = await api.request('GET', 'billing/current', { token: nora });
    expect(before.status).toBe(200);
    const id = await openForOrganization(nora, uniqueName('Not a payer'));
    const after = await api.request('GET', 'billing/current', { token: nora });
    expect(after.status).toBe(200);
    expect(after.body.billing_account?.id ?? null).not.toBe(id);
    expect(after.body).toEqual(before.body);
  });

  it("is no one else's: another user neither sees nor resumes it, and their own names stay theirs", async () => {
    const name = uniqueName('Private Co');
    const id = await openForOrganization(nora, name);
    expect((await unfinishedOf(dana)).map((account) => account.id)).not.toContain(id);
    expect(await check(dana, name)).toEqual({ billing_account_id: null, has_payment_method: false, unfinished: false });
    const setup = await api.request('POST', 'billing/payment-methods/setup', { token: dana, body: { billing_account_id: id } });
    expect(setup.status).toBe(404);
  });

  it('an account that is not from the wizard, or whose organization exists, is a taken name and not offered', async () => {
    const plainName = uniqueName('Plain Co');
    const plain = await api.request('POST', 'billing/', { token: dana, body: { name: plainName } });
    expect(await check(dana, plainName)).toEqual({ billing_account_id: plain.body.billing_account_id, has_payment_method: false, unfinished: false });

    const orgToken = await api.tokenFor('viewer@example.com');
    const name = uniqueName('Finished Co');
    const id = await openForOrganization(orgToken, name);
    await setPaymentMethod(api.db, id, 'pm_test', 'Visa •••• 4242');
    expect((await check(orgToken, name)).unfinished).toBe(true);
    const created = await api.request('POST', 'organizations/', { token: orgToken, body: { display_name: name, billing_account_id: id } });
    expect(created.status).toBe(201);
    expect(await check(orgToken, name)).toEqual({ billing_account_id: id, has_payment_method: true, unfinished: false });
    expect((await unfinishedOf(orgToken)).map((account) => account.id)).not.toContain(id);
  });

  it('the cleanup pass removes unfinished accounts only after the keeping time, by the business clock', async () => {
    const name = uniqueName('Stale Co');
    const id = await openForOrganization(nora, name);
    const keptName = uniqueName('Kept Co');
    const kept = await api.request('POST', 'billing/', { token: nora, body: { name: keptName } });
    api.clock.advance(6 * DAY_MS);
    expect((await cleanUpUnfinishedBillingAccounts({ db: api.db, clock: api.clock }, 7)).removed).not.toContain(id);
    expect((await check(nora, name)).billing_account_id).toBe(id);
    api.clock.advance(1 * DAY_MS + 60_000);
    expect((await cleanUpUnfinishedBillingAccounts({ db: api.db, clock: api.clock }, 7)).removed).toContain(id);
    // The name is free again; the account that did not come from the wizard stays.
    expect(await check(nora, name)).toEqual({ billing_account_id: null, has_payment_method: false, unfinished: false });
    expect((await check(nora, keptName)).billing_account_id).toBe(kept.body.billing_account_id);
    expect((await unfinishedOf(nora)).map((account) => account.id)).not.toContain(id);
  });

  it("removes the account's customer at the payment provider with it, and keeps the account while the provider fails", async () => {
    const name = uniqueName('Customer Co');
    const id = await openForOrganization(nora, name);
    await setCustomerRef(api.db, id, `cus_${id}`);
    api.clock.advance(8 * DAY_MS);
    const asked: string[] = [];
    const failing = {
      deleteCustomer: async (ref: string) => {
        asked.push(ref);
        throw new Error('provider unreachable');
      },
    };
    const firstPass = await cleanUpUnfinishedBillingAccounts({ db: api.db, clock: api.clock, payments: failing }, 7);
    expect(firstPass.kept).toContain(id);
    expect(firstPass.removed).not.toContain(id);
    expect((await check(nora, name)).billing_account_id).toBe(id);
    const deleted: string[] = [];
    const working = { deleteCustomer: async (ref: string) => void deleted.push(ref) };
    const secondPass = await cleanUpUnfinishedBillingAccounts({ db: api.db, clock: api.clock, payments: working }, 7);
    expect(secondPass.removed).toContain(id);
    expect(asked).toEqual([`cus_${id}`]);
    expect(deleted).toContain(`cus_${id}`);
    expect((await check(nora, name)).billing_account_id).toBeNull();
  });

  it('the platform schedules the cleanup as a recurring job', async () => {
    const jobs = createJobQueue(api.db);
    try {
      await scheduleUnfinishedBillingCleanup({ db: api.db, clock: api.clock, jobs, days: 7 });
      expect((await jobs.latest('billing:unfinished', UNFINISHED_CLEANUP_JOB))?.status).toBe('queued');
    } finally {
      await jobs.close();
    }
  });

  it('who may not, and bad bodies', async () => {
    expect((await api.request('GET', 'billing/unfinished')).status).toBe(401);
    const bad = await api.request('POST', 'billing/', { token: nora, body: { name: uniqueName('Bad Co'), for_organization: 'yes' } });
    // A wrong type is a malformed request (400), not a field the person typed (422).
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details)).toContain('for_organization');
  });
});

describe('UNFINISHED_BILLING_ACCOUNT_DAYS', () => {
  it('defaults to 7, takes a whole number of days, and refuses anything else', () => {
    expect(loadConfig({}).unfinishedBillingAccountDays).toBe(7);
    expect(loadConfig({ UNFINISHED_BILLING_ACCOUNT_DAYS: '2' }).unfinishedBillingAccountDays).toBe(2);
    expect(() => loadConfig({ UNFINISHED_BILLING_ACCOUNT_DAYS: '0' })).toThrow(/UNFINISHED_BILLING_ACCOUNT_DAYS/);
    expect(() => loadConfig({ UNFINISHED_BILLING_ACCOUNT_DAYS: 'soon' })).toThrow(/UNFINISHED_BILLING_ACCOUNT_DAYS/);
  });
});
