import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { accountToFollow, followProjectAccount, forgetFollowedProject } from '../../services/account-mode';
import { projectAccount } from '../../services/projects';
import { rememberSelectedProject } from '../../services/selected-project';
import { ErrorMessageView } from '../errors/route-error-view';
import { NotFoundView } from '../errors/not-found-view';
import { useShellData } from '../shell/use-shell-data';
import { classifyProjectPath, projectIdFromSlug } from './project-path';

/** /{projectSlug}/...: checks the slug, remembers the project, and renders the project's page. */
export function ProjectLayout() {
  const params = useParams();
  const slug = params.projectSlug ?? '';
  // The path after the slug, read from the location: when a registered child route matched, params['*'] is empty.
  const rest = useLocation().pathname.split('/').filter(Boolean).slice(1).join('/');
  const shell = useShellData();
  const kind = classifyProjectPath(slug, rest);
  const project = shell.currentProject;
  const projectId = kind === 'project' ? projectIdFromSlug(slug) : null;
  // A project the current account does not hold may be in another of the user's accounts (a teammate's shared
  // address of an organization's project, opened in the personal account): the API names it and the tab follows.
  const missing = projectId !== null && shell.projects.isSuccess && !project;
  const holder = useQuery({ queryKey: ['projects', projectId, 'account'], queryFn: () => projectAccount(projectId!), enabled: missing, retry: false });
  const follow = missing && holder.isSuccess ? accountToFollow({ projectId: projectId!, current: shell.organizationId, holder: holder.data.organizationId }) : undefined;

  useEffect(() => {
    if (!project) return;
    rememberSelectedProject(project.slug);
    forgetFollowedProject();
  }, [project]);
  useEffect(() => {
    if (follow !== undefined && projectId !== null) followProjectAccount(projectId, follow);
  }, [follow, projectId]);

  if (kind === 'redirect-home') return <Navigate to="/" replace />;
  if (kind === 'not-found') return <NotFoundView />;
  if (shell.projects.isLoading) return <Spinner size="lg" />;
  if (shell.projects.isError) throw shell.projects.error;
  if (!project && (holder.isPending || follow !== undefined)) return <Spinner size="lg" label="Opening the project in its account" />;
  if (!project) {
    return <ErrorMessageView message="We could not find this project" description="It may have been deleted, or it belongs to another account." action={{ label: 'Go to projects', to: '/projects' }} />;
  }
  return <Outlet />;
}
