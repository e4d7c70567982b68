import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { rememberSelectedProject } from '../../services/selected-project';
import { ErrorMessageView } from '../errors/route-error-view';
import { NotFoundView } from '../errors/not-found-view';
import { useShellData } from '../shell/use-shell-data';
import { classifyProjectPath } from './project-path';

/** /{projectSlug}/...: checks the slug, remembers the project, and renders the project's page. */
export function ProjectLayout() {
  const params = useParams();
  const slug = params.projectSlug ?? '';
  // The path after the slug, read from the location: when a registered child route matched, params['*'] is empty.
  const rest = useLocation().pathname.split('/').filter(Boolean).slice(1).join('/');
  const shell = useShellData();
  const kind = classifyProjectPath(slug, rest);
  const project = shell.currentProject;

  useEffect(() => {
    if (project) rememberSelectedProject(project.slug);
  }, [project]);

  if (kind === 'redirect-home') return <Navigate to="/" replace />;
  if (kind === 'not-found') return <NotFoundView />;
  if (shell.projects.isLoading) return <Spinner size="lg" />;
  if (shell.projects.isError) throw shell.projects.error;
  if (!project) {
    return <ErrorMessageView message="We could not find this project" description="It may have been deleted, or it belongs to another account." action={{ label: 'Go to projects', to: '/projects' }} />;
  }
  return <Outlet />;
}
