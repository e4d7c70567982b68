import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Alert } from '../../components/ui/alert';
import { Spinner } from '../../components/ui/spinner';
import { useShellData } from './use-shell-data';

export const READ_ONLY_TITLE = 'Read-only access';
export const readOnlyMessage = (what: string) =>
  `You have read-only access to this organization, so ${what} is not available to you. Ask an owner of the organization for write access.`;

/**
 * Screens whose links the spec hides from read-only members (project Settings, Organization, Create organization)
 * are kept from them by address too: typed or bookmarked, they show this message instead of the screen, and the
 * screen's data (pending invitations' emails, the team) is never requested.
 */
export function RequireWriteAccess({ what, children }: { what: string; children: ReactNode }) {
  const shell = useShellData();
  if (shell.organizationId !== null && shell.organizations.isPending) return <Spinner label="Loading" />;
  if (!shell.readOnly) return <>{children}</>;
  return (
    <div className={css({ maxW: '3xl', mx: 'auto', p: '6' })}>
      <Alert status="warning" title={READ_ONLY_TITLE}>
        {readOnlyMessage(what)}
      </Alert>
    </div>
  );
}
