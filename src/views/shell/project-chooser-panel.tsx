import { Popover } from '@ark-ui/react/popover';
import { Portal } from '@ark-ui/react/portal';
import { useEffect, useRef, type MutableRefObject } from 'react';
import { Link } from 'react-router';
import { css, cx } from 'styled-system/css';
import { popover } from 'styled-system/recipes/popover';
import { rememberSelectedProject } from '../../services/selected-project';
import { CreateProjectForm } from '../projects/create-project-form';
import { replayGesture, type Gesture } from './first-use';
import { ProjectChooserLabel, projectChooserTrigger } from './project-chooser';
import { useQueryParamToggle } from './query-param-toggle';
import { useShellData } from './use-shell-data';

/** The project menu's popover: the account's projects and the create-project form. Loaded on first use (project-chooser.tsx). */
export function ProjectChooserPanel({ gesture }: { gesture: MutableRefObject<Gesture | null> }) {
  const shell = useShellData();
  const [open, setOpen] = useQueryParamToggle('select-project');
  const styles = popover();
  const projects = shell.projects.data ?? [];
  const trigger = useRef<HTMLButtonElement>(null);
  // The click that asked for this popover, done again on its real trigger.
  useEffect(() => replayGesture(trigger.current, gesture), [gesture]);

  return (
    <Popover.Root open={open} onOpenChange={(details) => setOpen(details.open)} positioning={{ placement: 'bottom-start', gutter: 8 }} lazyMount unmountOnExit>
      <Popover.Trigger ref={trigger} {...projectChooserTrigger(shell.currentProject?.name)}>
        <ProjectChooserLabel name={shell.currentProject?.name} />
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner className={styles.positioner}>
          <Popover.Content className={cx(styles.content, css({ w: 'min(22rem, calc(100vw - 1.5rem))', p: '0', overflow: 'hidden' }))}>
            <Popover.Title className={css({ px: '4', pt: '3', pb: '2', textStyle: 'xs', fontWeight: 'semibold', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>
              Projects
            </Popover.Title>
            <ul aria-label="Projects" className={css({ maxH: '64', overflowY: 'auto', px: '2', pb: '2' })}>
              {shell.projects.isLoading && <li className={css({ px: '2', py: '1.5', color: 'fg.muted', textStyle: 'sm' })}>Loading…</li>}
              {shell.projects.isSuccess && projects.length === 0 && <li className={css({ px: '2', py: '1.5', color: 'fg.muted', textStyle: 'sm' })}>No projects yet.</li>}
              {projects.map((project) => (
                <li key={project.id}>
                  <Link
                    to={`/${project.slug}`}
                    onClick={() => {
                      rememberSelectedProject(project.slug);
                      setOpen(false);
                    }}
                    aria-current={project.slug === shell.projectSlug ? 'true' : undefined}
                    className={css({ display: 'flex', alignItems: 'center', gap: '2', px: '2', py: '1.5', borderRadius: 'l2', textStyle: 'sm', _hover: { bg: 'gray.a3' }, '&[aria-current=true]': { bg: 'colorPalette.a3', color: 'colorPalette.text', fontWeight: 'medium' } })}
                  >
                    <span aria-hidden="true" className={css({ w: '6', h: '6', borderRadius: 'l1', bg: 'colorPalette.a4', color: 'colorPalette.text', display: 'grid', placeItems: 'center', textStyle: 'xs', fontWeight: 'bold' })}>
                      {project.name.slice(0, 1).toUpperCase()}
                    </span>
                    <span className={css({ truncate: true })}>{project.name}</span>
                  </Link>
                </li>
              ))}
            </ul>
            <div className={css({ borderTopWidth: '1px', p: '4', bg: 'gray.a2' })}>
              <p className={css({ textStyle: 'sm', fontWeight: 'semibold', mb: '2' })}>Create a new project</p>
              <CreateProjectForm onCreated={() => setOpen(false)} />
            </div>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
