// Project Settings against the real database: who may delete a project, what deletion removes (members lose access,
// every integration released through the product seam, in the deletion's transaction) and adding team members.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorText } from '../../contract/errors';
import type { Queryable } from '../../server/db/database';
import { addIntegrationUser, createIntegration } from '../../server/db/repositories/integrations-repository';
import { createProject } from '../../server/db/repositories/projects-repository';
import type { ProductBackend } from '../../server/route-kit/product-backend';
import type { ProductRegistry } from '../../server/products/product-registry';
import { startApi, type ApiHarness } from '../support/api-client';
import { databaseTargets } from '../support/postgres';

/** A product back end that records what it was asked to release, and can be told to fail. */
function recordingBackend(slug: string, released: { slug: string; integrationId: number; projectId: number; inTransaction: boolean }[], fail: { on: boolean }): ProductBackend {
  return {
    slug,
    enable: async () => ({}),
    async release(tx: Queryable, integration) {
      if (fail.on) throw new Error(`${slug} could not be released`);
      // The integration row is still there and visible inside the deletion's transaction.
      const rows = await tx.query('SELECT id FROM integrations WHERE id = $1', [integration.integrationId]);
      released.push({ slug, ...integration, inTransaction: rows.length === 1 });
    },
  };
}

describe.each(databaseTargets())('project settings ($kind)', (target) => {
  let api: ApiHarness;
  let acmeId: number;
  let owner: string;
  let readWrite: string;
  let readOnly: string;
  const released: { slug: string; integrationId: number; projectId: number; inTransaction: boolean }[] = [];
  const fail = { on: false };

  beforeAll(async () => {
    const backends = new Map(['qryn', 'clickhouse', 'loggen'].map((slug) => [slug, recordingBackend(slug, released, fail)]));
    const products: ProductRegistry = { get: (slug) => backends.get(slug), all: () => [...backends.values()], start: async () => undefined, close: async () => undefined };
    api = await startApi(target, { platform: { products } });
    acmeId = (await api.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
    owner = await api.tokenFor('demo@example.com', { organizationId: acmeId });
    readWrite = await api.tokenFor('dev@example.com', { organizationId: acmeId });
    readOnly = await api.tokenFor('viewer@example.com', { organizationId: acmeId });
  });
  afterAll(async () => api?.close());

  const freshProject = async (name: string) => {
    const demo = await api.user('demo@example.com');
    return createProject(api.db, { name, organizationId: acmeId, userId: demo.id, billingAccountId: null });
  };

  it('the owner deletes a project: members lose access, integrations are released in the same transaction, then 404', async () => {
    const project = await freshProject('Doomed');
    const dev = await api.user('dev@example.com');
    expect((await api.request('POST', 'projects/users', { token: owner, body: { user_id: dev.id, project_id: project.id } })).status).toBe(201);
    const qryn = await createIntegration(api.db, { projectId: project.id, productSlug: 'qryn', status: 'active', creatorUserId: dev.id });
    const clickhouse = await createIntegration(api.db, { projectId: project.id, productSlug: 'clickhouse', status: 'trial', creatorUserId: dev.id, trialDays: 14 });
    // Grafana has no back end in this registry: its row still goes with the project.
    const grafana = await createIntegration(api.db, { projectId: project.id, productSlug: 'grafana', status: 'active', creatorUserId: dev.id });
    await addIntegrationUser(api.db, grafana, dev.id);
    expect((await api.request('GET', 'projects/users', { token: readWrite, query: { project_id: project.id } })).status).toBe(200);

    released.length = 0;
    const deleted = await api.request('DELETE', 'projects', { token: owner, query: { project_id: project.id } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.message).toBe('The project Doomed has been deleted.');
    expect(released.map((r) => [r.slug, r.integrationId, r.projectId, r.inTransaction])).toEqual([
      ['qryn', qryn, project.id, true],
      ['clickhouse', clickhouse, project.id, true],
    ]);
    expect(await api.db.query('SELECT id FROM integrations WHERE project_id = $1', [project.id])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM integration_users WHERE integration_id = $1', [grafana])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM project_members WHERE project_id = $1', [project.id])).toEqual([]);
    for (const token of [owner, readWrite]) {
      expect((await api.request('GET', 'projects/users', { token, query: { project_id: project.id } })).status).toBe(404);
      expect((await api.request('GET', 'integrations/', { token, query: { project_id: project.id } })).status).toBe(404);
      const list = await api.request('GET', 'projects/', { token });
      expect(list.body.some((p: { id: number }) => p.id === project.id)).toBe(false);
    }
    expect((await api.request('DELETE', 'projects', { token: owner, query: { project_id: project.id } })).status).toBe(404);
  });

  it('a back end that cannot be released keeps the project as it was (one transaction)', async () => {
    const project = await freshProject('Sticky');
    await createIntegration(api.db, { projectId: project.id, productSlug: 'qryn', status: 'active', creatorUserId: null });
    fail.on = true;
    try {
      const response = await api.request('DELETE', 'projects', { token: owner, query: { project_id: project.id } });
      expect(response.status).toBe(500);
    } finally {
      fail.on = false;
    }
    expect(await api.db.query('SELECT id FROM projects WHERE id = $1', [project.id])).toHaveLength(1);
    expect(await api.db.query('SELECT id FROM integrations WHERE project_id = $1', [project.id])).toHaveLength(1);
  });

  it('read-write and read-only members, personal accounts and Hepic block deletion with the spec texts', async () => {
    const project = await freshProject('Guarded');
    const rw = await api.request('DELETE', 'projects', { token: readWrite, query: { project_id: project.id } });
    expect(rw.status).toBe(403);
    expect(rw.body.description).toBe(ErrorText.projectDeletionOwnerOnly);
    const ro = await api.request('DELETE', 'projects', { token: readOnly, query: { project_id: project.id } });
    expect(ro.status).toBe(403);

    const personal = await api.tokenFor('demo@example.com');
    const mine = (await api.request('GET', 'projects/', { token: personal })).body[0];
    const refused = await api.request('DELETE', 'projects', { token: personal, query: { project_id: mine.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.description).toBe(ErrorText.projectDeletionOrganizationOnly);

    await createIntegration(api.db, { projectId: project.id, productSlug: 'hepic', status: 'trial', creatorUserId: null, trialDays: 14 });
    const hepic = await api.request('DELETE', 'projects', { token: owner, query: { project_id: project.id } });
    expect(hepic.status).toBe(409);
    expect(hepic.body.description).toBe(ErrorText.projectDeletionHepicActive);
    expect(await api.db.query('SELECT id FROM projects WHERE id = $1', [project.id])).toHaveLength(1);
  });

  it('adding a member: only organization members, "Please select one user." for a missing user', async () => {
    const project = await freshProject('Team');
    const missing = await api.request('POST', 'projects/users', { token: owner, body: { project_id: project.id } });
    expect(missing.status).toBe(422);
    expect(missing.body.details.user_id).toEqual(['Please select one user.']);
    const outsider = await api.user('new@example.com');
    const refused = await api.request('POST', 'projects/users', { token: owner, body: { user_id: outsider.id, project_id: project.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(ErrorText.onlyOrganizationMembers);
    const viewer = await api.user('viewer@example.com');
    // project_id in the query string, as the spec sends it.
    const added = await api.request('POST', `projects/users`, { token: readWrite, query: { project_id: project.id }, body: { user_id: viewer.id } });
    expect(added.status).toBe(201);
    const team = await api.request('GET', 'projects/users', { token: owner, query: { project_id: project.id } });
    expect(team.body.map((u: { email: string }) => u.email).sort()).toEqual(['demo@example.com', 'viewer@example.com']);
  });
});
