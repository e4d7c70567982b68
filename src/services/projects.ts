import { MessageResponse } from '../../contract/common';
import { CreateProjectResponse, ProjectAccount, ProjectUserList } from '../../contract/projects';
import { http } from './http';

export function createProject(input: { name: string }) {
  return http.post('projects/', CreateProjectResponse, { json: { name: input.name } });
}

/** The project team (GET projects/users). */
export function listProjectUsers(projectId: number) {
  return http.get('projects/users', ProjectUserList, { searchParams: { project_id: projectId } });
}

/** Adds an organization member to the project team (spec: POST projects/users {user_id} with project_id). */
export function addProjectUser(input: { projectId: number; userId: string }) {
  return http.post('projects/users', MessageResponse, { searchParams: { project_id: input.projectId }, json: { userId: input.userId, projectId: input.projectId } });
}

/** Deletes the project, its team and its integrations (spec: DELETE projects?project_id=). */
export function deleteProject(projectId: number) {
  return http.delete('projects', MessageResponse, { searchParams: { project_id: projectId } });
}

/** The account that holds a project the user can see (GET projects/{id}/account): a shared address's organization. */
export function projectAccount(projectId: number) {
  return http.get(`projects/${projectId}/account`, ProjectAccount);
}
