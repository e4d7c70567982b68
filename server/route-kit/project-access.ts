import { findVisibleProject, type ProjectRow } from '../db/repositories/projects-repository';
import type { ApiContext } from './api-context';
import type { Caller } from './caller';
import { notFound } from './http';

/** A project the caller may see, or 404 (the same answer whether it does not exist or is someone else's). */
export async function visibleProjectOr404(ctx: Pick<ApiContext, 'db'>, caller: Caller, projectId: number): Promise<ProjectRow> {
  const project = await findVisibleProject(ctx.db, caller, projectId);
  if (!project) throw notFound(`We could not find project ${projectId} among your projects.`);
  return project;
}
