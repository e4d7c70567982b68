import { lazy, Suspense } from 'react';
import { css, cx } from 'styled-system/css';
import { buttonStyles } from '../../components/ui/button';
import { ChevronsIcon, GridIcon } from '../../components/ui/icons';
import { useFirstUse } from './first-use';
import { useQueryParamToggle } from './query-param-toggle';
import { useShellData } from './use-shell-data';

const loadPanel = () => import('./project-chooser-panel');
const ProjectChooserPanel = lazy(async () => ({ default: (await loadPanel()).ProjectChooserPanel }));

const label = (name: string | undefined) => name ?? 'Select a project';

/** The trigger's name and look, the same on the popover's trigger and on its stand-in. */
export const projectChooserTrigger = (name: string | undefined) => ({
  'aria-label': `Project: ${label(name)}. Change project`,
  className: cx(buttonStyles({ variant: 'outline', size: 'sm' }), css({ maxW: { base: '44', sm: '72' }, justifyContent: 'space-between', bg: 'bg.default' })),
});

export function ProjectChooserLabel({ name }: { name: string | undefined }) {
  return (
    <>
      <span className={css({ truncate: true })}>{label(name)}</span>
      <ChevronsIcon />
    </>
  );
}

/**
 * The project menu in the top bar (select-project=open). Lists the account's projects and, unless the organization
 * is read-only, the create-project form. A read-only organization has no trigger at all (spec 000 section 2). The
 * popover (project-chooser-panel.tsx, with the form) loads on first use.
 */
export function ProjectChooser() {
  const shell = useShellData();
  const [open] = useQueryParamToggle('select-project');
  const firstUse = useFirstUse(open, loadPanel);
  const name = shell.currentProject?.name;

  if (shell.readOnly) {
    return (
      <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontWeight: 'medium', textStyle: 'sm', px: '2' })}>
        <GridIcon />
        {label(name)}
      </span>
    );
  }

  const standIn = (
    <button type="button" {...projectChooserTrigger(name)} aria-haspopup="dialog" aria-expanded="false" {...firstUse.standIn}>
      <ProjectChooserLabel name={name} />
    </button>
  );
  if (!firstUse.wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ProjectChooserPanel gesture={firstUse.gesture} />
    </Suspense>
  );
}
