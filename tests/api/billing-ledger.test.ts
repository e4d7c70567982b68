// The billing ledger against the real database: an organization's trial ends on the business clock, the scheduled
// invoicing job (the platform's job queue) issues the $249 monthly invoice once per period and charges the card on
// file; the local provider's charge-declined card leaves it open with a pay-now link, which blocks account deletion
// (402 with the link) until the invoice is paid on the local provider's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceList } from '../../contract/invoices';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local-payment-provider';
import { INVOICING_JOB, ORGANIZATION_MONTHLY_CENTS, addMonths, runInvoicing, startBillingLedger } from '../../server/billing/billing-ledger';
import { createClock } from '../../server/clock';
import { createUser } from '../../server/db/repositories/users-repository';
import { createJobQueue, type JobQueue } from '../../server/jobs/job-queue';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { Schema } from 'effect';

const DAY = 24 * 60 * 60 * 1000;
const year = new Date().getUTCFullYear() + 2;

describe.each(databaseTargets())('billing ledger ($kind)', (target) => {
  let api: ApiHarness;
  let jobs: JobQueue;
  const clock = createClock();

  beforeAll(async () => {
    api = await startApi(target, { platform: { clock } });
    jobs = createJobQueue(api.db, { pollMs: 50 });
    await startBillingLedger({ db: api.db, clock, jobs, payments: createLocalPaymentProvider(api.db), publicUrl: api.config.publicUrl, apiBasePath: api.config.apiBasePath });
    jobs.start();
  });
  afterAll(async () => {
    await jobs?.close();
    await api?.close();
  });

  /** A fresh user who creates an organization through the API with the given test card. */
  async function organizationWithCard(email: string, cardNumber: string) {
    const user = await createUser(api.db, { email, password: 'Demo1234!', givenName: 'Ledger', familyName: 'Owner', emailVerified: true });
    const personal = await api.mint(user);
    const account = await api.request('POST', 'billing/', { token: personal, body: { name: `${email} billing` } });
    const setup = await api.request('POST', 'billing/payment-methods/setup', { token: personal, body: { billing_account_id: account.body.billing_account_id } });
    const confirmed = await api.request('POST', `payments/local/setup-intents/${setup.body.client_secret}/confirm`, {
      token: personal,
      body: { card_number: cardNumber, exp_month: 12, exp_year: year, cvc: '123' },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const attached = await api.request('POST', 'billing/payment-methods/attach', {
      token: personal,
      body: { billing_account_id: account.body.billing_account_id, payment_method_id: confirmed.body.setup_intent.payment_method },
    });
    expect(attached.status).toBe(200);
    const created = await api.request('POST', 'organizations/', { token: personal, body: { display_name: `Ledger ${email.split('@')[0]}`, billing_account_id: account.body.billing_account_id } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const owner = await api.mint(user, { organizationId: created.body.organization_id });
    return { user, personal, owner, organizationId: created.body.organization_id as number };
  }

  /** One run of the scheduled job, now (the queued run is due in an hour: bring it forward like a restart would). */
  async function runScheduledJob() {
    await api.db.query("UPDATE jobs SET run_at = now() WHERE kind = $1 AND status = 'queued'", [INVOICING_JOB]);
    await jobs.drain(20_000);
  }

  it('trial, then a declined charge leaves the invoice open; pay now settles it and deletion goes through', async () => {
    const { personal, owner, organizationId } = await organizationWithCard('declines@example.com', '4000 0000 0000 0341');
    const trial = await api.request('GET', 'organizations/trial', { token: owner });
    expect(trial.body.remaining_days).toBe(14);

    await runScheduledJob();
    expect((await api.request('GET', 'billing/invoices', { token: owner })).body).toEqual([]);

    clock.advance(15 * DAY);
    expect((await api.request('GET', 'organizations/trial', { token: owner })).body.remaining_days).toBe(0);
    await runScheduledJob();
    const listed = await api.request('GET', 'billing/invoices', { token: owner });
    expect(listed.status).toBe(200);
    const invoices = Schema.decodeUnknownSync(InvoiceList)(listed.body);
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    expect(invoice).toMatchObject({ amount_cents: ORGANIZATION_MONTHLY_CENTS, currency: 'usd', status: 'open', payment_error: 'Your card was declined.' });
    const trialEnd = (await api.db.query<{ trial_ends_at: Date }>('SELECT trial_ends_at FROM organizations WHERE id = $1', [organizationId]))[0].trial_ends_at;
    expect(invoice.period_start).toBe(trialEnd.toISOString());
    expect(invoice.period_end).toBe(addMonths(trialEnd, 1).toISOString());
    expect(invoice.payment_link).toMatch(new RegExp(`^${api.baseUrl}/api/payments/local/invoices/[\\w-]+/pay$`));

    // The job runs again (and on a second instance it would too): still one invoice for the period.
    await runScheduledJob();
    await runInvoicing({ db: api.db, clock, payments: createLocalPaymentProvider(api.db), publicUrl: api.config.publicUrl, apiBasePath: api.config.apiBasePath });
    expect((await api.request('GET', 'billing/invoices', { token: owner })).body).toHaveLength(1);

    const refused = await api.request('DELETE', 'users', { token: personal });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ message: 'You have pending payments', payment_link: invoice.payment_link });

    const pageUrl = invoice.payment_link!;
    const shown = await fetch(pageUrl);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('$249.00');
    const declined = await fetch(pageUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card_number: '4000000000000341', exp: `12/${year % 100}`, cvc: '123' }) });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    const bad = await fetch(pageUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card_number: '1234', exp: 'xx', cvc: '' }) });
    expect(bad.status).toBe(402);
    const paid = await fetch(pageUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card_number: '4242 4242 4242 4242', exp: `12/${year % 100}`, cvc: '123' }) });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('Payment received');
    const after = (await api.request('GET', 'billing/invoices', { token: owner })).body;
    expect(after[0]).toMatchObject({ status: 'paid', payment_link: null });
    expect(after[0].paid_at).toBeTruthy();

    expect((await api.request('DELETE', 'users', { token: personal })).status).toBe(200);
    // The organization the user alone owned went with the account (deletion was only allowed once nothing was owed).
    expect(await api.db.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId])).toEqual([]);
  });

  it('a good card pays each month automatically; members who are not owners see no invoices', async () => {
    const { owner, organizationId } = await organizationWithCard('pays@example.com', '4242 4242 4242 4242');
    clock.advance(15 * DAY);
    await runScheduledJob();
    clock.advance(31 * DAY);
    await runScheduledJob();
    const invoices = (await api.request('GET', 'billing/invoices', { token: owner })).body as { status: string; amount_cents: number }[];
    expect(invoices.length).toBeGreaterThanOrEqual(2);
    expect(invoices.every((i) => i.status === 'paid' && i.amount_cents === ORGANIZATION_MONTHLY_CENTS)).toBe(true);
    const dev = await api.user('dev@example.com');
    await api.db.query('INSERT INTO organization_members (organization_id, user_id) VALUES ($1, $2)', [organizationId, dev.id]);
    const member = await api.mint(dev, { organizationId });
    expect((await api.request('GET', 'billing/invoices', { token: member })).body).toEqual([]);
    expect((await api.request('GET', 'billing/invoices')).status).toBe(401);
    expect((await fetch(`${api.baseUrl}/api/payments/local/invoices/unknown/pay`)).status).toBe(404);
  });
});
