// Invitations are bound to the invited email (issue 16, item 3): a stranger who read the code (the outbox, a
// forwarded mail) cannot join; the invited account must have verified its address; the invite answer does not say
// whether an address has an account; one address gets at most INVITATION_MAILS_PER_HOUR invitation mails an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_MAILS_PER_HOUR } from '../../server/api/organization-routes';
import { createUser } from '../../server/db/repositories/users-repository';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

describe.each(databaseTargets())('invitations bound to their email ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let acmeId: number;
  beforeAll(async () => {
    api = await startApi(target);
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
  });
  afterAll(async () => api?.close());

  const codeFor = async (email: string) =>
    (await api.db.query<{ code: string }>('SELECT code FROM invitations WHERE invited_email = $1 ORDER BY id DESC LIMIT 1', [email]))[0].code;
  const isMember = async (email: string) =>
    (await api.db.query('SELECT 1 FROM organization_members m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.organization_id = $2', [email, acmeId])).length > 0;

  it('a stranger holding the code cannot accept; the invited, verified account can', async () => {
    await createUser(api.db, { email: 'invitee@example.com', password: 'Demo1234!', givenName: 'In', familyName: 'Vitee', emailVerified: true });
    await createUser(api.db, { email: 'stranger@example.com', password: 'Demo1234!', givenName: 'Str', familyName: 'Anger', emailVerified: true });
    expect((await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'invitee@example.com' } })).status).toBe(201);
    const code = await codeFor('invitee@example.com');

    const stolen = await api.request('POST', 'organizations/invitations/accept', { token: await api.tokenFor('stranger@example.com'), query: { code } });
    expect(stolen.status).toBe(403);
    expect(stolen.body).toMatchObject({ message: 'This invitation is for another email address.', error: 'This invitation is for another email address.' });
    expect(await isMember('stranger@example.com')).toBe(false);

    const accepted = await api.request('POST', 'organizations/invitations/accept', { token: await api.tokenFor('invitee@example.com'), query: { code } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await isMember('invitee@example.com')).toBe(true);
  });

  it('the invited address must be verified first (case of the address does not matter)', async () => {
    await createUser(api.db, { email: 'Unverified@Example.com', password: 'Demo1234!', givenName: 'Un', familyName: 'Verified', emailVerified: false });
    await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'unverified@example.com' } });
    const code = await codeFor('unverified@example.com');
    const refused = await api.request('POST', 'organizations/invitations/accept', { token: await api.tokenFor('Unverified@Example.com'), query: { code } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Please verify your email address first.');
    await api.db.query("UPDATE users SET email_verified = true WHERE email = 'Unverified@Example.com'");
    const accepted = await api.request('POST', 'organizations/invitations/accept', { token: await api.tokenFor('Unverified@Example.com'), query: { code } });
    expect(accepted.status).toBe(200);
  });

  it('the invite answer is the same whether the address has an account or not', async () => {
    await createUser(api.db, { email: 'has-account@example.com', password: 'Demo1234!', givenName: 'Has', familyName: 'Account', emailVerified: true });
    const known = await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'has-account@example.com' } });
    const unknown = await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'no-account@example.com' } });
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect(known.body).not.toHaveProperty('user_exists');
    expect(known.body).not.toHaveProperty('user_id');
  });

  it(`at most ${INVITATION_MAILS_PER_HOUR} invitation mails to one address an hour (creations and re-sends)`, async () => {
    const invite = await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'flooded@example.com' } });
    expect(invite.status).toBe(201);
    for (let i = 1; i < INVITATION_MAILS_PER_HOUR; i++) {
      expect((await api.request('PATCH', 'organizations/invitations', { token: owner, body: { id: invite.body.invitation_id } })).status).toBe(200);
    }
    const refused = await api.request('PATCH', 'organizations/invitations', { token: owner, body: { id: invite.body.invitation_id } });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many invitations');
    const mails = await api.db.query("SELECT 1 FROM mail_outbox WHERE to_address = 'flooded@example.com'");
    expect(mails).toHaveLength(INVITATION_MAILS_PER_HOUR);
    // An hour later the address may be invited again.
    await api.db.query("UPDATE invitation_mails SET sent_at = now() - interval '61 minutes' WHERE email = 'flooded@example.com'");
    expect((await api.request('PATCH', 'organizations/invitations', { token: owner, body: { id: invite.body.invitation_id } })).status).toBe(200);
  });
});
