import { describe, expect, it } from 'vitest';
import { recordEndedSessions } from '../../server/identity/session-revocation';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

// The API reads whether a token's sign-in was ended and the caller's membership in one statement per request
// (server/db/repositories/caller-access-repository.ts). These writes go straight into the database, past the API,
// so nothing but a fresh read on the very next request can see them.

const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;

async function acmeId(api: ApiHarness): Promise<number> {
  return (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
}

describe.each(databaseTargets())('caller access on every request (%o)', (target) => {
  const withApi = async (run: (api: ApiHarness) => Promise<void>) => {
    const api = await startApi(target, { env: { READ_CACHE: 'off' } });
    try {
      await run(api);
    } finally {
      await api.close();
    }
  };

  it('a membership removed in the database refuses the very next request', () =>
    withApi(async (api) => {
      const acme = await acmeId(api);
      const token = await api.tokenFor('dev@example.com', { organizationId: acme });
      expect((await api.request('GET', 'projects', { token })).status).toBe(200);
      await api.db.query('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2', [acme, (await api.user('dev@example.com')).id]);
      expect((await api.request('GET', 'projects', { token })).status).toBe(403);
    }), 120_000);

  it('an owner flag taken away in the database shows on the very next list', () =>
    withApi(async (api) => {
      const acme = await acmeId(api);
      const token = await api.tokenFor('demo@example.com', { organizationId: acme });
      const before = (await api.request<Array<{ owner: boolean }>>('GET', 'projects', { token })).body;
      expect(before.length).toBeGreaterThan(0);
      expect(before.every((project) => project.owner)).toBe(true);
      await api.db.query('UPDATE organization_members SET owner = false WHERE organization_id = $1 AND user_id = $2', [acme, (await api.user('demo@example.com')).id]);
      const after = (await api.request<Array<{ owner: boolean }>>('GET', 'projects', { token })).body;
      expect(after.map((project) => project.owner)).toEqual(before.map(() => false));
    }), 120_000);

  it('an ended sign-in is refused on the very next request, in personal and in organization mode', () =>
    withApi(async (api) => {
      const personal = await api.tokenFor('demo@example.com');
      const organization = await api.tokenFor('demo@example.com', { organizationId: await acmeId(api) });
      for (const token of [personal, organization]) {
        expect((await api.request('GET', 'projects', { token })).status).toBe(200);
        await recordEndedSessions(api.db, [sidOf(token)], 3600);
        const refused = await api.request('GET', 'projects', { token });
        expect(refused.status).toBe(401);
        expect(refused.body.description).toMatch(/This sign-in has ended/);
      }
    }), 120_000);

  it('a personal-mode caller is not asked for a membership', () =>
    withApi(async (api) => {
      const token = await api.tokenFor('demo@example.com');
      const projects = (await api.request<Array<{ organization_id: number | null; owner: boolean }>>('GET', 'projects', { token })).body;
      expect(projects.map((project) => [project.organization_id, project.owner])).toEqual([[null, true]]);
    }), 120_000);
});
