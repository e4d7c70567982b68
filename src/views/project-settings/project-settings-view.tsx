// /{projectSlug}/settings: Project Settings (spec 000 section 2): the Project Team card, the Add a member card (a form
// posting to /resources/add-to-project) and the Delete project card with its typed-confirmation modal (project-deletion
// machine, query action=delete-project-{id}).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { queries } from '../../app/query-keys';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { projectDeletionMachine } from '../../machines/project-deletion/project-deletion.machine';
import { deleteProject, listProjectUsers } from '../../services/projects';
import { clearSelectedProject, readSelectedProject } from '../../services/selected-project';
import { toast } from '../../services/toast-store';
import { RequireWriteAccess } from '../shell/require-write-access';
import { useShellData } from '../shell/use-shell-data';
import { subjectInAction } from '../../lib/url-state';
import { useUrlDialog } from '../url-state/use-url-state';
import { AddMemberCard } from './add-member-card';
import { DeleteProjectDialog } from './delete-project-dialog';
import { deleteBlockedReason, isHepicLive } from './project-deletion-rules';

export const projectUsersKey = (projectId: number) => ['projects', projectId, 'users'] as const;

export function ProjectSettingsView() {
  const shell = useShellData();
  const project = shell.currentProject;
  // ProjectLayout renders this page only for a project of the list.
  if (!project) return null;
  return (
    <RequireWriteAccess what="changing the project settings">
      <ProjectSettings project={project} organizationId={shell.organizationId} />
    </RequireWriteAccess>
  );
}

/** The delete-project modal's address: ?action=delete-project-{id}. */
export const DELETE_PROJECT_ACTION = 'delete-project-';

function ProjectSettings({ project, organizationId }: { project: { id: number; name: string; slug: string; owner: boolean }; organizationId: number | null }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const team = useQuery({ queryKey: projectUsersKey(project.id), queryFn: () => listProjectUsers(project.id) });
  const integrations = useQuery(queries.integrations(project.id));

  const deletion = useActorRef(
    projectDeletionMachine.provide({
      actors: { deleteProject: fromPromise(({ input }) => deleteProject(input.projectId)) },
      actions: {
        notifyDeleted: (_, p) => toast.success(p.message),
        leaveProject: () => {
          if (readSelectedProject() === project.slug) clearSelectedProject();
          queryClient.removeQueries({ queryKey: ['integrations', project.id] });
          void queryClient.invalidateQueries({ queryKey: ['projects'] });
          void queryClient.invalidateQueries({ queryKey: ['users', 'products'] });
          navigate('/projects', { replace: true });
        },
      },
    }),
  );

  const blocked = deleteBlockedReason({ organizationMode: organizationId !== null, owner: project.owner, hepicLive: isHepicLive(integrations.data ?? []) });

  // ?action=delete-project-{id} opens the modal (on a click, a reload or a shared link), and closing it removes the
  // parameter: the console's one query-parameter mechanism.
  const deletionOpen = useSelector(deletion, (snapshot) => !snapshot.matches('closed'));
  const requestDeletion = useUrlDialog({
    address: subjectInAction(DELETE_PROJECT_ACTION),
    ready: integrations.isSuccess,
    dialogOpen: deletionOpen,
    open: (id) => {
      if (id !== String(project.id) || blocked) return false;
      deletion.send({ type: 'deletion.open', project: { id: project.id, name: project.name, slug: project.slug } });
      return true;
    },
  });

  if (team.isError) {
    return (
      <Page>
        <Alert status="error" title={`We had issues loading the settings information for project ${project.id}`}>
          Please refresh the page and try again. If the problem persists, please contact support.
        </Alert>
      </Page>
    );
  }

  return (
    <Page>
      <Card title="Project Team" description={<>Members of <bdi>{project.name}</bdi>.</>}>
        {team.isPending ? (
          <Spinner />
        ) : team.data.length === 0 ? (
          <p className={css({ color: 'fg.muted' })}>There are no users yet.</p>
        ) : (
          <ul aria-label="Project Team" className={css({ display: 'flex', flexDirection: 'column', divideY: '1px', listStyle: 'none', p: '0' })}>
            {team.data.map((member) => (
              <li key={member.id} aria-label={`${member.givenName} ${member.familyName}`.trim() || member.email} className={css({ py: '3' })}>
                <div className={css({ fontWeight: 'medium' })}>{`${member.givenName} ${member.familyName}`.trim() || member.email}</div>
                <div className={css({ color: 'fg.muted', fontSize: 'sm' })}>{member.email}</div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <AddMemberCard
        projectId={project.id}
        organizationId={organizationId}
        projectEmails={(team.data ?? []).map((member) => member.email)}
        onAdded={() => void queryClient.invalidateQueries({ queryKey: projectUsersKey(project.id) })}
      />

      <Card
        title="Delete project"
        description="Deleting a project will remove all its data and users."
        footer={
          <Button variant="outline" disabled={blocked !== null || integrations.isPending} onClick={() => requestDeletion(String(project.id))} aria-describedby={blocked ? 'delete-project-blocked' : undefined}>
            Delete project
          </Button>
        }
      >
        {blocked && (
          <p id="delete-project-blocked" className={css({ color: 'fg.muted' })}>
            {blocked}
          </p>
        )}
      </Card>

      <DeleteProjectDialog actor={deletion} />
    </Page>
  );
}

function Page({ children }: { children: ReactNode }) {
  return (
    <main className={css({ maxW: '4xl', mx: 'auto', p: { base: '4', md: '8' }, display: 'flex', flexDirection: 'column', gap: '6' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>Project Settings</h1>
      {children}
    </main>
  );
}

