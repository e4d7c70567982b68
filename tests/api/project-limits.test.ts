// Issue 16 item 8: a per-account project limit (PROJECT_LIMIT_PER_ACCOUNT) with a clear message, and GET projects
// bounded: by the limit, and in pages (?limit=&offset=, X-Total-Count, Link rel="next").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROJECT_PAGE, PROJECT_LIMIT_MESSAGE, projectLimitDescription } from '../../contract/projects';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

const LIMIT = 6;

describe.each(databaseTargets())('project limit and paging ($kind)', (target) => {
  let api: ApiHarness;
  let owner: string;
  let dev: string;
  let devInAcme: string;
  beforeAll(async () => {
    api = await startApi(target, { env: { PROJECT_LIMIT_PER_ACCOUNT: String(LIMIT) } });
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    devInAcme = await api.tokenFor('dev@example.com', { organizationId: acmeId });
    dev = await api.tokenFor('dev@example.com');
  });
  afterAll(async () => api?.close());

  const count = async (where: string, params: unknown[]) => (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM projects WHERE ${where}`, params))[0].n;

  it('an organization holds at most the limit, whoever creates them, even when created at once', async () => {
    const acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    const before = await count('organization_id = $1', [acmeId]);
    expect(before).toBeLessThan(LIMIT);
    // Twice the room left, from two members in parallel: exactly the room is used.
    const room = LIMIT - before;
    const answers = await Promise.all(
      Array.from({ length: room * 2 }, (_, i) => api.request('POST', 'projects/', { token: i % 2 ? owner : devInAcme, body: { name: `Burst ${i}` } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(room);
    const refused = answers.filter((a) => a.status !== 201);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: PROJECT_LIMIT_MESSAGE, description: projectLimitDescription(LIMIT) });
    }
    expect(await count('organization_id = $1', [acmeId])).toBe(LIMIT);
  });

  it('a personal account has its own limit', async () => {
    const user = await api.user('dev@example.com');
    const before = await count('organization_id IS NULL AND user_id = $1', [user.id]);
    for (let i = before; i < LIMIT; i++) expect((await api.request('POST', 'projects/', { token: dev, body: { name: `Mine ${i}` } })).status).toBe(201);
    const over = await api.request('POST', 'projects/', { token: dev, body: { name: 'One too many' } });
    expect(over.status).toBe(409);
    expect(over.body.description).toBe(projectLimitDescription(LIMIT));
    // One fewer (deletion is an organization-mode call, so removed here directly) makes room again.
    await api.db.query('DELETE FROM projects WHERE id = (SELECT min(id) FROM projects WHERE organization_id IS NULL AND user_id = $1)', [user.id]);
    expect((await api.request('POST', 'projects/', { token: dev, body: { name: 'Room again' } })).status).toBe(201);
  });

  it('pages GET projects by id with the total and the next page; the unpaged list is the pages joined', async () => {
    const all = await api.request('GET', 'projects/', { token: owner });
    expect(all.status).toBe(200);
    expect(all.body.length).toBe(LIMIT);
    const seen: number[] = [];
    let offset = 0;
    for (;;) {
      const page = await api.request('GET', 'projects/', { token: owner, query: { limit: 4, offset } });
      expect(page.status).toBe(200);
      expect(page.headers.get('x-total-count')).toBe(String(LIMIT));
      seen.push(...page.body.map((p: { id: number }) => p.id));
      const next = page.headers.get('link');
      if (!next) break;
      expect(next).toBe(`<projects/?limit=4&offset=${offset + 4}>; rel="next"`);
      offset += 4;
    }
    expect(seen).toEqual(all.body.map((p: { id: number }) => p.id));
  });

  it('refuses pages that are too large or malformed', async () => {
    const queries: Record<string, string | number>[] = [{ limit: MAX_PROJECT_PAGE + 1 }, { limit: 0 }, { limit: 'x' }, { offset: -1 }, { offset: 1.5 }];
    for (const query of queries) {
      const response = await api.request('GET', 'projects/', { token: owner, query });
      expect([400, 422], JSON.stringify(query)).toContain(response.status);
    }
  });
});
