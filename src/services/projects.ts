import { CreateProjectResponse, ProjectList } from '../../contract/projects';
import { http } from './http';

export type Project = Awaited<ReturnType<typeof listProjects>>[number];

export function listProjects() {
  return http.get('projects/', ProjectList);
}

export function createProject(input: { name: string }) {
  return http.post('projects/', CreateProjectResponse, { json: { name: input.name } });
}
