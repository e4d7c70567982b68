import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Schema } from 'effect';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { CurrentBillingResponse, PaymentConfigResponse } from '../../contract/billing';
import { OrganizationList, OrganizationTrialResponse, OrganizationUserList } from '../../contract/organizations';
import { InvitedUserList } from '../../contract/invitations';
import { ProjectList, ProjectUserList } from '../../contract/projects';
import { ProductList, UserProductList } from '../../contract/products';
import { IntegrationList, ServiceStatusList } from '../../contract/integrations';
import { listOutbox } from '../../server/adapters/mail/mailer';

// Every call's happy path, and every response checked against its contract schema (what the console decodes).
const conforms = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, value: unknown) =>
  expect(() => Schema.decodeUnknownSync(schema as never)(value)).not.toThrow();

describe.each(databaseTargets())('API happy paths ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let personal: string;
  let acmeId: number;

  beforeAll(async () => {
    api = await startApi(target);
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    personal = await api.tokenFor('demo@example.com');
  });
  afterAll(async () => api?.close());

  it('GET projects/ lists the organization projects in organization mode and the personal one otherwise', async () => {
    const org = await api.request('GET', 'projects/', { token: owner });
    expect(org.status).toBe(200);
    conforms(ProjectList, org.body);
    expect(org.body.map((p: { name: string }) => p.name)).toEqual(['Acme Production', 'Acme Staging']);
    expect(org.body[0].slug).toBe(`acme-production-${org.body[0].id}`);
    expect(org.body[0].owner).toBe(true);
    const mine = await api.request('GET', 'projects', { token: personal });
    expect(mine.body.map((p: { name: string }) => p.name)).toEqual(['Personal Sandbox']);
  });

  it('POST projects/ creates a project and returns its slug', async () => {
    const created = await api.request('POST', 'projects/', { token: owner, body: { name: 'Edge Nodes!' } });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Your project has successfully been created.');
    expect(created.body.slug).toBe(`edge-nodes-${created.body.id}`);
    const list = await api.request('GET', 'projects/', { token: owner });
    expect(list.body.some((p: { id: number }) => p.id === created.body.id)).toBe(true);
  });

  it('projects/users: list, add an organization member, delete project', async () => {
    const created = await api.request('POST', 'projects/', { token: owner, body: { name: 'Team test' } });
    const projectId = created.body.id;
    const before = await api.request('GET', 'projects/users', { token: owner, query: { project_id: projectId } });
    expect(before.status).toBe(200);
    conforms(ProjectUserList, before.body);
    expect(before.body.map((u: { email: string }) => u.email)).toEqual(['demo@example.com']);
    const dev = await api.user('dev@example.com');
    const added = await api.request('POST', 'projects/users', { token: owner, body: { user_id: dev.id, project_id: projectId } });
    expect(added.status).toBe(201);
    expect(added.body.message).toMatch(/added/);
    const after = await api.request('GET', 'projects/users', { token: owner, query: { project_id: projectId } });
    expect(after.body.map((u: { email: string }) => u.email)).toContain('dev@example.com');
    const deleted = await api.request('DELETE', 'projects', { token: owner, query: { project_id: projectId } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toMatch(/deleted/);
    const gone = await api.request('GET', 'projects/users', { token: owner, query: { project_id: projectId } });
    expect(gone.status).toBe(404);
  });

  it('billing: current, name lookup, create, setup intent, local confirm, attach, tax id', async () => {
    const current = await api.request('GET', 'billing/current', { token: owner });
    expect(current.status).toBe(200);
    conforms(CurrentBillingResponse, current.body);
    expect(current.body.billing_account.payment_method_id).toBe('pm_local_demo4242');

    const lookup = await api.request('GET', 'stripe/billing-account-id', { token: owner, query: { name: 'acme BILLING' } });
    expect(lookup.body).toEqual({ billing_account_id: current.body.billing_account.id, has_payment_method: true, unfinished: false });

    const newUser = await api.tokenFor('new@example.com');
    const created = await api.request('POST', 'billing/', { token: newUser, body: { name: '  Nora Co  ', default: true } });
    expect(created.status).toBe(201);
    const accountId = created.body.billing_account_id;
    expect(typeof accountId).toBe('number');
    const mineNow = await api.request('GET', 'billing/current', { token: newUser });
    expect(mineNow.body.billing_account).toMatchObject({ id: accountId, name: 'Nora Co', payment_method_id: null });

    const setup = await api.request('POST', 'billing/payment-methods/setup', { token: newUser, body: { billing_account_id: accountId } });
    expect(setup.status).toBe(201);
    expect(setup.body.client_secret).toMatch(/^seti_local_/);
    const confirm = await api.request('POST', `payments/local/setup-intents/${setup.body.client_secret}/confirm`, {
      token: newUser,
      body: { card_number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.setup_intent.status).toBe('succeeded');
    const attach = await api.request('POST', 'billing/payment-methods/attach', {
      token: newUser,
      body: { billing_account_id: accountId, payment_method_id: confirm.body.setup_intent.payment_method },
    });
    expect(attach.status).toBe(200);
    expect(attach.body.message).toBe('Payment method updated');

    const tax = await api.request('POST', 'billing/tax-id', {
      token: newUser,
      body: { billing_account_id: accountId, country: 'DE', type: 'eu_vat', value: 'DE123456789' },
    });
    expect(tax.status).toBe(201);
    const withTax = await api.request('GET', 'billing/current', { token: newUser });
    expect(withTax.body.billing_account.payment_method_label).toBe('visa •••• 4242');
    expect(withTax.body.billing_account.tax_ids).toMatchObject([{ country: 'DE', type: 'eu_vat', value: 'DE123456789' }]);
  });

  it('the local card provider declines 4000 0000 0000 0002 and rejects bad numbers, expiry and cvc', async () => {
    const token = personal;
    const account = (await api.request('GET', 'billing/current', { token })).body.billing_account;
    const year = new Date().getFullYear() + 1;
    const attempt = async (card: Record<string, unknown>) => {
      const setup = await api.request('POST', 'billing/payment-methods/setup', { token, body: { billing_account_id: account.id } });
      return api.request('POST', `payments/local/setup-intents/${setup.body.client_secret}/confirm`, { token, body: card });
    };
    const declined = await attempt({ card_number: '4000000000000002', exp_month: 1, exp_year: year, cvc: '123' });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ message: 'Your card was declined.', code: 'card_declined' });
    expect((await attempt({ card_number: '4242424242424241', exp_month: 1, exp_year: year, cvc: '123' })).body.error.code).toBe('invalid_number');
    expect((await attempt({ card_number: '4242424242424242', exp_month: 13, exp_year: year, cvc: '123' })).body.error.code).toBe('invalid_expiry_month');
    expect((await attempt({ card_number: '4242424242424242', exp_month: 1, exp_year: 2001, cvc: '123' })).body.error.code).toBe('invalid_expiry_year');
    expect((await attempt({ card_number: '4242424242424242', exp_month: 1, exp_year: year, cvc: '12' })).body.error.code).toBe('invalid_cvc');
    // A payment method that was never confirmed for this account cannot be attached.
    const attach = await api.request('POST', 'billing/payment-methods/attach', {
      token,
      body: { billing_account_id: account.id, payment_method_id: 'pm_local_made_up' },
    });
    expect(attach.status).toBe(400);
  });

  it('GET stripe/config is public and names the signed-in user', async () => {
    const anonymous = await api.request('GET', 'stripe/config');
    expect(anonymous.status).toBe(200);
    conforms(PaymentConfigResponse, anonymous.body);
    expect(anonymous.body).toEqual({ publishable_key: null, mock: true, email: null, username: null });
    const signedIn = await api.request('GET', 'stripe/config', { token: owner });
    expect(signedIn.body).toMatchObject({ email: 'demo@example.com', username: 'Demo Owner' });
  });

  it('organizations: users, owner, trial, invitations list, users/organizations', async () => {
    const users = await api.request('GET', 'organizations/users', { token: owner });
    expect(users.status).toBe(200);
    conforms(OrganizationUserList, users.body);
    expect(users.body[0]).toMatchObject({ email: 'demo@example.com', owner: true });
    expect(users.body.map((u: { email: string }) => u.email).sort()).toEqual(['demo@example.com', 'dev@example.com', 'viewer@example.com']);

    const owned = await api.request('GET', 'organizations/users/owner', { token: personal });
    conforms(OrganizationList, owned.body);
    expect(owned.body).toEqual([{ id: acmeId, name: 'Acme', read_only: false, owner: true }]);

    const trial = await api.request('GET', 'organizations/trial', { token: owner });
    conforms(OrganizationTrialResponse, trial.body);
    expect(trial.body.remaining_days).toBe(14);

    const invitations = await api.request('GET', 'organizations/invitations', { token: owner });
    conforms(InvitedUserList, invitations.body);
    expect(invitations.body).toMatchObject([{ invited_user_email: 'invited@example.com', inviting_user_name: 'Demo Owner', read_only: false }]);

    const viewerOrgs = await api.request('GET', 'users/organizations', { token: await api.tokenFor('viewer@example.com') });
    expect(viewerOrgs.body).toEqual([{ id: acmeId, name: 'Acme', read_only: true, owner: false }]);
  });

  it('POST organizations/ needs a billing account with a card, and only one owned organization', async () => {
    const token = await api.tokenFor('new@example.com');
    const noCard = await api.request('POST', 'billing/', { token, body: { name: 'No card account' } });
    const refused = await api.request('POST', 'organizations/', { token, body: { display_name: 'Nora Org', billing_account_id: noCard.body.billing_account_id } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('The payment method is missing');
    const withoutCard = await api.request('GET', 'stripe/billing-account-id', { token, query: { name: 'No card account' } });
    expect(withoutCard.body).toEqual({ billing_account_id: noCard.body.billing_account_id, has_payment_method: false, unfinished: false });

    const withCard = (await api.request('GET', 'stripe/billing-account-id', { token, query: { name: 'Nora Co' } })).body.billing_account_id;
    const created = await api.request('POST', 'organizations/', { token, body: { display_name: 'Nora Org', billing_account_id: withCard } });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Organization created successfully');
    expect(typeof created.body.organization_id).toBe('number');

    const second = await api.request('POST', 'organizations/', { token, body: { display_name: 'Nora Two', billing_account_id: withCard } });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('You already own an organization and cannot create more.');
  });

  it('invitations: create mails the link, re-send (PATCH and POST), delete', async () => {
    const invited = await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'friend@example.com', read_only: true } });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ organization_id: acmeId });
    const mail = (await listOutbox(api.db)).find((m) => m.to_address === 'friend@example.com')!;
    expect(mail.text_body).toMatch(new RegExp(`${api.baseUrl}/invitations\\?code=[\\w-]+&organization_name=Acme`));

    const resent = await api.request('PATCH', 'organizations/invitations', { token: owner, body: { id: invited.body.invitation_id } });
    expect(resent.status).toBe(200);
    const resentAgain = await api.request('POST', `organizations/invitations/${invited.body.invitation_id}/resend`, { token: owner });
    expect(resentAgain.status).toBe(200);
    const mails = (await listOutbox(api.db)).filter((m) => m.to_address === 'friend@example.com');
    expect(mails).toHaveLength(3);
    // Each re-send issues a new code: the old link stops working.
    expect(new Set(mails.map((m) => /code=([\w-]+)/.exec(m.text_body)![1])).size).toBe(3);

    const removed = await api.request('DELETE', 'organizations/invites', { token: owner, query: { invite_id: invited.body.invitation_id } });
    expect(removed.status).toBe(200);
    const again = await api.request('DELETE', 'organizations/invites', { token: owner, query: { invite_id: invited.body.invitation_id } });
    expect(again.status).toBe(404);
  });

  it('users: profile update, password update, resend verification', async () => {
    const token = await api.tokenFor('dev@example.com');
    const profile = await api.request('PATCH', 'users', { token, body: { given_name: 'Dana', family_name: 'Dev' } });
    expect(profile.status).toBe(200);
    expect(profile.body.user).toMatchObject({ given_name: 'Dana', family_name: 'Dev', name: 'Dana Dev' });
    const unchanged = await api.request('PATCH', 'users', { token, body: { given_name: 'Dana', family_name: 'Dev' } });
    expect(unchanged.status).toBe(400);
    expect(unchanged.body.message).toBe('Please change your info');

    const password = await api.request('PATCH', 'users/password', { token, body: { password: 'N3w-Passw0rd!' } });
    expect(password.status).toBe(200);
    const { authenticateUser } = await import('../../server/db/repositories/users-repository');
    expect(await authenticateUser(api.db, 'dev@example.com', 'N3w-Passw0rd!')).toBeDefined();

    const verified = await api.request('POST', 'users/resend-verification', { token });
    expect(verified.body.message).toMatch(/already verified/);
    await api.db.query("UPDATE users SET email_verified = false WHERE email = 'new@example.com'");
    const resent = await api.request('POST', 'users/resend-verification', { token: await api.tokenFor('new@example.com') });
    expect(resent.status).toBe(200);
    expect((await listOutbox(api.db)).some((m) => m.to_address === 'new@example.com' && /verify/i.test(m.subject))).toBe(true);

    const social = await api.request('PATCH', 'users', { token: await api.tokenFor('social@example.com'), body: { given_name: 'S', family_name: 'X' } });
    expect(social.status).toBe(403);
  });

  it('products, users/products, integrations, trial, cancellation, status', async () => {
    const products = await api.request('GET', 'products', { token: owner });
    conforms(ProductList, products.body);
    expect(products.body.map((p: { slug: string }) => p.slug)).toEqual(['clickhouse', 'grafana', 'hepic', 'loggen', 'qryn']);
    expect(products.body.find((p: { slug: string }) => p.slug === 'loggen').dependencies).toEqual(['qryn']);

    const projects = (await api.request('GET', 'projects/', { token: owner })).body;
    const production = projects.find((p: { name: string }) => p.name === 'Acme Production');
    const staging = projects.find((p: { name: string }) => p.name === 'Acme Staging');

    const userProducts = await api.request('GET', 'users/products', { token: owner });
    conforms(UserProductList, userProducts.body);
    expect(userProducts.body.map((p: { slug: string }) => p.slug)).toEqual(['grafana', 'loggen', 'qryn']);

    const integrations = await api.request('GET', 'integrations/', { token: owner, query: { project_id: production.id } });
    expect(integrations.status).toBe(200);
    conforms(IntegrationList, integrations.body);
    const grafana = integrations.body.find((i: { product: { slug: string } }) => i.product.slug === 'grafana');
    expect(grafana).toMatchObject({ status: 'active', creator_name: 'Demo Owner', is_user_active: true, is_available: true });
    const asViewer = await api.request('GET', 'integrations/', { token: await api.tokenFor('viewer@example.com', { organizationId: acmeId }), query: { project_id: production.id } });
    expect(asViewer.body.find((i: { product: { slug: string } }) => i.product.slug === 'grafana')).toMatchObject({ is_user_active: false, is_available: false });

    const trial = await api.request('GET', 'integrations/qryn/trial', { token: owner, query: { project_id: production.id } });
    expect(trial.body).toEqual({ remaining_days: 14 });
    const notEnabled = await api.request('GET', 'integrations/hepic/trial', { token: owner, query: { project_id: production.id } });
    expect(notEnabled.status).toBe(400);
    expect(notEnabled.body.message).toBe(`hepic is not enabled for project ${production.id}`);

    const cancellation = await api.request('GET', 'integrations/loggen/cancellation', { token: owner, query: { project_id: staging.id } });
    const days = (cancellation.body.cancellation_date_timestamp * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
    expect(days).toBeLessThan(10.1);

    const status = await api.request('GET', 'integrations/status', { token: owner });
    conforms(ServiceStatusList, status.body);
    expect(status.body[0]).toEqual({ product: 'Platform', slug: 'platform', services: [{ name: 'API', running: true }, { name: 'Database', running: true }] });
    // No product back end is installed in this API-only harness: products honestly report no services.
    expect(status.body.find((s: { slug: string }) => s.slug === 'qryn').services).toEqual([]);
  });

  it('telemetry accepts batches without a token and counts events', async () => {
    const sent = await api.request('POST', 'telemetry', { body: { events: [{ name: 'page_view' }, { name: 'page_view' }, { name: 'click', properties: { id: 'x' } }] } });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ message: 'Accepted', accepted: 3 });
    const rows = await api.db.query<{ name: string; count: number }>('SELECT name, count FROM telemetry_event_counts ORDER BY name');
    expect(rows).toEqual([{ name: 'click', count: 1 }, { name: 'page_view', count: 2 }]);
    const tooMany = await api.request('POST', 'telemetry', { body: { events: Array.from({ length: 51 }, () => ({ name: 'x' })) } });
    expect(tooMany.status).toBe(422);
    const tooBig = await api.request('POST', 'telemetry', { rawBody: JSON.stringify({ events: [{ name: 'x', properties: { blob: 'y'.repeat(40_000) } }] }) });
    expect(tooBig.status).toBe(413);
  });

  it('DELETE users refuses with a payment link while an invoice is open, then deletes the account', async () => {
    const token = await api.tokenFor('new@example.com');
    const nora = await api.user('new@example.com');
    const account = (await api.db.query<{ id: number }>('SELECT id FROM billing_accounts WHERE owner_user_id = $1 LIMIT 1', [nora.id]))[0];
    await api.db.query("INSERT INTO invoices (billing_account_id, amount_cents, payment_link) VALUES ($1, 24900, 'https://pay.example/inv_1')", [account.id]);
    const refused = await api.request('DELETE', 'users', { token });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ message: 'You have pending payments', payment_link: 'https://pay.example/inv_1' });
    await api.db.query("UPDATE invoices SET status = 'paid' WHERE billing_account_id = $1", [account.id]);
    const deleted = await api.request('DELETE', 'users', { token });
    expect(deleted.status).toBe(200);
    expect(await api.db.query("SELECT 1 FROM users WHERE email = 'new@example.com'")).toEqual([]);
    // Her organization (she was its only owner) went with her.
    expect(await api.db.query("SELECT 1 FROM organizations WHERE name = 'Nora Org'")).toEqual([]);
    const after = await api.request('GET', 'users/organizations', { token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual([]);
  });
});
