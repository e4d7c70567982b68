import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';
import { listOutbox } from '../../server/adapters/mail/mailer';
import { createUser } from '../../server/db/repositories/users-repository';

// One person's whole path through an organization: invited to one project read-only, accepts, sees exactly that
// project and cannot change it, is promoted to read-write, is removed, and is refused from then on.
describe.each(databaseTargets())('invitation lifecycle ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let acmeId: number;
  let stagingId: number;
  let productionId: number;

  beforeAll(async () => {
    api = await startApi(target);
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    productionId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
    stagingId = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
  });
  afterAll(async () => api?.close());

  const codeFromMail = async (email: string) => {
    const mail = (await listOutbox(api.db)).find((m) => m.to_address === email)!;
    return new URL(/https?:\/\/\S+/.exec(mail.text_body)![0]).searchParams.get('code')!;
  };

  it('invite → accept → limited access → promote → remove → refused', async () => {
    const carol = await createUser(api.db, { email: 'carol@example.com', password: 'Demo1234!', givenName: 'Carol', familyName: 'C', emailVerified: true });
    const invite = await api.request('POST', 'organizations/invitations', {
      token: owner,
      body: { email: 'carol@example.com', project_ids: [stagingId], read_only: true },
    });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ organization_id: acmeId });
    // Whether the address has an account is not revealed.
    expect(invite.body).not.toHaveProperty('user_exists');
    expect(invite.body).not.toHaveProperty('user_id');
    const code = await codeFromMail('carol@example.com');

    // Before accepting, Carol is not a member: an organization token gets 403.
    const early = await api.request('GET', 'projects/', { token: await api.mint(carol, { organizationId: acmeId }) });
    expect(early.status).toBe(403);

    // Accept with the urlencoded form the console posts, code in the query string.
    const personal = await api.mint(carol);
    const accepted = await api.request('POST', 'organizations/invitations/accept', { token: personal, query: { code }, form: { intent: 'accept', terms: 'on' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ organization_id: acmeId, organization_name: 'Acme' });
    const reuse = await api.request('POST', 'organizations/invitations/accept', { token: personal, query: { code } });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ message: 'Invitation expired or invalid.', error: 'Invitation expired or invalid.' });

    const carolOrg = await api.mint(carol, { organizationId: acmeId });
    const projects = await api.request('GET', 'projects/', { token: carolOrg });
    expect(projects.body.map((p: { id: number }) => p.id)).toEqual([stagingId]);
    expect((await api.request('GET', 'integrations/', { token: carolOrg, query: { project_id: productionId } })).status).toBe(404);
    expect((await api.request('GET', 'integrations/', { token: carolOrg, query: { project_id: stagingId } })).status).toBe(200);
    expect((await api.request('POST', 'projects/', { token: carolOrg, body: { name: 'Carol project' } })).status).toBe(403);
    const orgs = await api.request('GET', 'users/organizations', { token: carolOrg });
    expect(orgs.body).toEqual([{ id: acmeId, name: 'Acme', read_only: true, owner: false }]);

    // Promote to read-write: writes are allowed at once, visibility stays limited to the invited project.
    const promote = await api.request('GET', 'users/promote', { token: owner, query: { user_id: carol.id, read_only: 'false', organization_id: acmeId } });
    expect(promote.status).toBe(200);
    expect(promote.body.message).toBe('User promoted');
    const created = await api.request('POST', 'projects/', { token: carolOrg, body: { name: 'Carol project' } });
    expect(created.status).toBe(201);
    expect((await api.request('GET', 'projects/', { token: carolOrg })).body.map((p: { id: number }) => p.id)).toEqual([stagingId, created.body.id]);

    // Carol is put on the Grafana user list of Staging, then removed from the organization: gone from everything.
    await api.db.query(
      `INSERT INTO integration_users (integration_id, user_id) SELECT i.id, $2 FROM integrations i WHERE i.project_id = $1 AND i.product_slug = 'loggen'`,
      [stagingId, carol.id],
    );
    const removed = await api.request('DELETE', `organizations/user/${carol.id}`, { token: owner });
    expect(removed.status).toBe(200);
    expect(await api.db.query('SELECT 1 FROM project_members WHERE user_id = $1', [carol.id])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM integration_users WHERE user_id = $1', [carol.id])).toEqual([]);
    expect((await api.request('GET', 'projects/', { token: carolOrg })).status).toBe(403);
    expect((await api.request('GET', 'projects/users', { token: carolOrg, query: { project_id: stagingId } })).status).toBe(403);
    expect((await api.request('GET', 'users/organizations', { token: carolOrg })).body).toEqual([]);
  });

  it('an expired or unknown code is refused with the spec text', async () => {
    await createUser(api.db, { email: 'late@example.com', password: 'Demo1234!', givenName: 'Late', familyName: 'L', emailVerified: true });
    const token = await api.tokenFor('late@example.com');
    const invite = await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'late@example.com' } });
    await api.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [invite.body.invitation_id]);
    const code = await codeFromMail('late@example.com');
    const expired = await api.request('POST', 'organizations/invitations/accept', { token, query: { code } });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Invitation expired or invalid.');
    const unknown = await api.request('POST', 'organizations/invitations/accept', { token, query: { code: 'made-up-code' } });
    expect(unknown.status).toBe(400);
    // The pending list shows it as expired, and a re-send makes it usable again with a new code.
    const pending = await api.request('GET', 'organizations/invitations', { token: owner });
    expect(pending.body.find((i: { id: number }) => i.id === invite.body.invitation_id).expired).toBe(true);
    await api.request('PATCH', 'organizations/invitations', { token: owner, body: { id: invite.body.invitation_id } });
    const fresh = (await listOutbox(api.db)).filter((m) => m.to_address === 'late@example.com')[0];
    const newCode = new URL(/https?:\/\/\S+/.exec(fresh.text_body)![0]).searchParams.get('code')!;
    expect(newCode).not.toBe(code);
    expect((await api.request('POST', 'organizations/invitations/accept', { token, query: { code: newCode } })).status).toBe(200);
  });

  it('an invitation without projects grants every project of the organization; owners cannot be removed or demoted', async () => {
    // late@ joined through the invitation without projects in the test above.
    const token = await api.tokenFor('late@example.com', { organizationId: acmeId });
    const projects = await api.request('GET', 'projects/', { token });
    expect(projects.body.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([productionId, stagingId]));
    const demo = await api.user('demo@example.com');
    expect((await api.request('DELETE', `organizations/user/${demo.id}`, { token: owner })).status).toBe(403);
    expect((await api.request('GET', 'users/promote', { token: owner, query: { user_id: demo.id, read_only: 'true', organization_id: acmeId } })).status).toBe(404);
  });

  it('an invitation cannot name projects of another organization', async () => {
    const personalProject = (await api.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Personal Sandbox'"))[0].id;
    const response = await api.request('POST', 'organizations/invitations', { token: owner, body: { email: 'x@example.com', project_ids: [personalProject] } });
    expect(response.status).toBe(422);
    expect(response.body.details.project_ids[0]).toMatch(/Unknown project/);
  });
});
