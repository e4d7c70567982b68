import { ErrorText } from '../../contract/errors';
import { ProjectIdQuery } from '../../contract/common';
import {
  AddProjectUserBody,
  CreateProjectBody,
  MAX_PROJECT_PAGE,
  PROJECT_LIMIT_MESSAGE,
  ProjectPageQuery,
  projectLimitDescription,
  projectSlug,
  type Project,
} from '../../contract/projects';
import { DEFAULT_PROJECT_LIMIT_PER_ACCOUNT } from '../config';
import { findOrganizationBillingAccount, findPersonalBillingAccount } from '../db/repositories/billing-repository';
import { hasLiveIntegration } from '../db/repositories/integrations-repository';
import { releaseProjectIntegrations } from './project-release';
import { isOrganizationMember } from '../db/repositories/organizations-repository';
import {
  addProjectUser,
  countAccountProjectsForUpdate,
  createProject,
  deleteProject,
  findProjectAccount,
  listProjectUsers,
  listVisibleProjects,
  pageVisibleProjects,
  type ProjectRow,
} from '../db/repositories/projects-repository';
import { readKey, type ApiContext, type ApiRouter } from '../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../route-kit/caller';
import { ApiError, badRequest, conflict, decodeOrThrow, forbidden, notFound, readBody, sendJson, sendJsonText } from '../route-kit/http';
import { visibleProjectOr404 } from '../route-kit/project-access';

/** The project owner: in organization mode an owner of the organization, in personal mode its creator. */
async function isProjectOwner(caller: Caller, project: ProjectRow): Promise<boolean> {
  if (project.organization_id === null) return project.user_id === caller.userId;
  const membership = await caller.membership();
  return Boolean(membership?.owner && project.organization_id === caller.organizationId);
}

export async function toProject(caller: Caller, row: ProjectRow): Promise<Project> {
  return {
    id: row.id,
    name: row.name,
    organization_id: row.organization_id,
    user_id: row.user_id,
    billing_account_id: row.billing_account_id,
    slug: projectSlug(row.name, row.id),
    owner: await isProjectOwner(caller, row),
  };
}

export function registerProjectRoutes(router: ApiRouter, ctx: ApiContext): void {
  router.add(
    'GET',
    'projects',
    async ({ res, query }, scope) => {
      const caller = requireCaller(await scope.caller());
      const page = decodeOrThrow(ProjectPageQuery, query);
      if (page.limit !== undefined || page.offset !== undefined) {
        if (caller.organizationId !== null) await requireOrganization(caller);
        const limit = page.limit ?? MAX_PROJECT_PAGE;
        const offset = page.offset ?? 0;
        const { rows, total } = await pageVisibleProjects(ctx.db, caller, { limit, offset });
        const items = await Promise.all(rows.map((row) => toProject(caller, row)));
        // The page is the plain list the unpaged call answers; the total and the next page travel in headers.
        const headers: Record<string, string> = { 'X-Total-Count': String(total) };
        if (offset + rows.length < total) headers.Link = `<projects/?limit=${limit}&offset=${offset + rows.length}>; rel="next"`;
        sendJson(res, 200, items, headers);
        return;
      }
      const json = await ctx.reads.share(readKey(caller, 'projects'), async () => {
        if (caller.organizationId !== null) await requireOrganization(caller);
        const rows = await listVisibleProjects(ctx.db, caller);
        return JSON.stringify(await Promise.all(rows.map((row) => toProject(caller, row))));
      });
      sendJsonText(res, 200, json);
    },
  );

  // The account a project lives in, whatever account the token is in: a shared address of an organization's project
  // opens in that organization (the console switches to it) instead of "We could not find this project".
  router.add('GET', 'projects/:id/account', async ({ res, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const projectId = Number(params.id);
    if (!Number.isSafeInteger(projectId) || projectId <= 0) throw badRequest('Invalid project id', 'The project id must be a positive integer.');
    const account = await findProjectAccount(ctx.db, caller.userId, projectId);
    if (!account) throw notFound(`We could not find project ${projectId} among your projects.`);
    sendJson(res, 200, { organization_id: account.organization_id });
  });

  router.add('POST', 'projects', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(CreateProjectBody, await readBody(req));
    await requireWritable(caller);
    const limit = ctx.config.projectLimitPerAccount ?? DEFAULT_PROJECT_LIMIT_PER_ACCOUNT;
    const billing =
      caller.organizationId === null
        ? await findPersonalBillingAccount(ctx.db, caller.userId)
        : await findOrganizationBillingAccount(ctx.db, caller.organizationId);
    const project = await ctx.db.transaction(async (tx) => {
      // Bounded accounts keep every list of projects (the console's pickers, GET projects) bounded too.
      if ((await countAccountProjectsForUpdate(tx, caller)) >= limit) throw conflict(PROJECT_LIMIT_MESSAGE, projectLimitDescription(limit));
      return createProject(tx, { name: body.name, organizationId: caller.organizationId, userId: caller.userId, billingAccountId: billing?.id ?? null });
    });
    sendJson(res, 201, { message: 'Your project has successfully been created.', id: project.id, slug: project.slug });
  });

  router.add('DELETE', 'projects', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    const project = await visibleProjectOr404(ctx, caller, project_id);
    // Spec 000 section 2: deleting is for the project owner, in organization mode only (a personal account has no
    // "organization user whose owner flag is true"), and never while Hepic runs (support disables it first).
    if (caller.organizationId === null) throw forbidden(ErrorText.projectDeletionOrganizationOnly);
    await requireWritable(caller);
    if (!(await isProjectOwner(caller, project))) throw forbidden(ErrorText.projectDeletionOwnerOnly);
    if (await hasLiveIntegration(ctx.db, project.id, 'hepic')) throw new ApiError(409, 'Hepic is active', ErrorText.projectDeletionHepicActive);
    await ctx.db.transaction(async (tx) => {
      await releaseProjectIntegrations(tx, ctx.products, [project.id]);
      await deleteProject(tx, project.id);
    });
    sendJson(res, 200, { message: `The project ${project.name} has been deleted.` });
  });

  router.add('GET', 'projects/users', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { project_id } = decodeOrThrow(ProjectIdQuery, query);
    if (caller.organizationId !== null) await requireOrganization(caller);
    const project = await visibleProjectOr404(ctx, caller, project_id);
    sendJson(res, 200, await listProjectUsers(ctx.db, project.id));
  });

  router.add('POST', 'projects/users', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const raw = (await readBody(req)) as Record<string, unknown>;
    // The spec sends project_id beside the body; accept it in the body or the query string.
    const input = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw } : raw;
    if (input && typeof input === 'object' && !('project_id' in input) && query.project_id !== undefined) {
      (input as Record<string, unknown>).project_id = Number(query.project_id);
    }
    const body = decodeOrThrow(AddProjectUserBody, input);
    if (caller.organizationId === null) throw new ApiError(403, 'Organization mode only', ErrorText.organizationModeOnly);
    await requireWritable(caller);
    const project = await visibleProjectOr404(ctx, caller, body.project_id);
    if (!(await isOrganizationMember(ctx.db, caller.organizationId, body.user_id))) {
      throw badRequest(ErrorText.onlyOrganizationMembers, 'The selected user is not a member of this organization.');
    }
    const added = await addProjectUser(ctx.db, project.id, body.user_id);
    sendJson(res, added ? 201 : 200, {
      message: added ? 'The user has been added to the project.' : 'The user is already a member of the project.',
    });
  });
}
