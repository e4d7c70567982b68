import { Link, useSearchParams } from 'react-router';
import { css } from 'styled-system/css';
import { projectHome } from './project-home';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PlusIcon } from '../../components/ui/icons';
import { Skeleton } from '../../components/ui/spinner';
import { rememberSelectedProject } from '../../services/selected-project';
import { useShellData } from '../shell/use-shell-data';


/** /projects: the account's projects in a 1/2/3-column grid. */
export function ProjectsView() {
  const shell = useShellData();
  const [, setParams] = useSearchParams();
  const openProjectMenu = () => setParams((current) => new URLSearchParams({ ...Object.fromEntries(current), 'select-project': 'open' }), { replace: true });

  if (shell.projects.isError) throw shell.projects.error;
  const projects = shell.projects.data ?? [];

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <div className={css({ display: 'flex', alignItems: { base: 'flex-start', sm: 'center' }, justifyContent: 'space-between', gap: '4', flexDirection: { base: 'column', sm: 'row' } })}>
        <div>
          <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>Projects</h1>
          <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>Each project enables its own integrations.</p>
        </div>
        {!shell.readOnly && (
          <Button onClick={openProjectMenu}>
            <PlusIcon />
            Create a new project
          </Button>
        )}
      </div>
      <ul aria-label="Projects" className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
        {shell.projects.isLoading &&
          [0, 1, 2].map((index) => (
            <li key={index}>
              <Skeleton height="28" />
            </li>
          ))}
        {projects.map((project) => (
          <li key={project.id}>
            <Link
              to={projectHome(project.slug)}
              onClick={() => rememberSelectedProject(project.slug)}
              className={css({ display: 'block', h: 'full', borderRadius: 'l3', transition: 'transform 0.15s, box-shadow 0.15s', _hover: { transform: 'translateY(-2px)', shadow: 'lg' }, _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default', outlineOffset: '2px' } })}
            >
              <Card className={css({ h: 'full' })} title={project.name} description={project.slug}>
                <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>{project.organizationId ? 'Organization project' : 'Personal project'}</p>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
      {shell.projects.isSuccess && projects.length === 0 && (
        <Card title="No projects yet" description={shell.readOnly ? 'Ask an owner of this organization to create one.' : "Create your first project to enable integrations."} />
      )}
    </div>
  );
}
