import { css } from 'styled-system/css';
import { Alert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import { useShellData } from '../shell/use-shell-data';
import { CreateProjectForm } from './create-project-form';

/** /resources/create-project: the create-project form on its own page. */
export function CreateProjectView() {
  const shell = useShellData();
  return (
    <div className={css({ maxW: 'lg', mx: 'auto', display: 'flex', flexDirection: 'column', gap: '4' })}>
      <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>Create a new project</h1>
      {shell.readOnly ? (
        <Alert status="info" title="Read-only organization">
          Projects can only be created by members with write access.
        </Alert>
      ) : (
        <Card>
          <CreateProjectForm autoFocus />
        </Card>
      )}
    </div>
  );
}
