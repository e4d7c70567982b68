// 'Add a member' (spec 000 section 2 Project Settings): organization members not yet in the project, posted to the
// form target /resources/add-to-project with the intent 'add-user-to-project'. Organization mode only.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { css } from 'styled-system/css';
import { ErrorText } from '../../../contract/errors';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Select } from '../../components/ui/select';
import { FORM_INTENTS } from '../../services/form-intents';
import { listOrganizationUsers } from '../../services/organizations';
import type { ResourceActionResult } from './resource-actions';

export const NO_MEMBERS_LEFT = 'Every member of the organization is already in this project.';

export function AddMemberCard({
  projectId,
  organizationId,
  projectEmails,
  onAdded,
}: {
  projectId: number;
  organizationId: number | null;
  projectEmails: readonly string[];
  onAdded: () => void;
}) {
  if (organizationId === null) {
    return (
      <Card title="Add a member">
        <p className={css({ color: 'fg.muted' })}>{ErrorText.organizationModeOnly}</p>
      </Card>
    );
  }
  return <AddMemberForm projectId={projectId} organizationId={organizationId} projectEmails={projectEmails} onAdded={onAdded} />;
}

function AddMemberForm({ projectId, organizationId, projectEmails, onAdded }: { projectId: number; organizationId: number; projectEmails: readonly string[]; onAdded: () => void }) {
  const members = useQuery({ queryKey: ['organizations', organizationId, 'users'], queryFn: listOrganizationUsers });
  const fetcher = useFetcher<ResourceActionResult>();
  const [userId, setUserId] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const inProject = new Set(projectEmails.map((email) => email.toLowerCase()));
  const candidates = (members.data ?? []).filter((member) => !inProject.has(member.email.toLowerCase()));
  const disabled = members.isPending || candidates.length === 0;
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) {
      setUserId([]);
      setSubmitted(false);
      onAdded();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [result]);

  const fieldError = submitted && result && !result.ok ? (result.fieldErrors?.user_id?.[0] ?? result.error) : undefined;

  return (
    <Card title="Add a member" description="Only members of the organization can be added to the project.">
      {members.isError ? (
        <p className={css({ color: 'fg.error' })}>We could not load the members of the organization.</p>
      ) : (
        <fetcher.Form
          method="post"
          action="/resources/add-to-project"
          aria-label="Add a member"
          noValidate
          className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
          onSubmit={() => setSubmitted(true)}
        >
          <input type="hidden" name="intent" value={FORM_INTENTS.addUserToProject} />
          <input type="hidden" name="project_id" value={projectId} />
          <input type="hidden" name="user_id" value={userId[0] ?? ''} />
          <Select
            label="User"
            items={candidates.map((member) => ({ value: member.id, label: `${`${member.givenName} ${member.familyName}`.trim() || member.email} (${member.email})` }))}
            value={userId}
            onValueChange={setUserId}
            placeholder={candidates.length === 0 && !members.isPending ? NO_MEMBERS_LEFT : 'Select a user'}
            disabled={disabled}
            errorText={fieldError}
          />
          <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
            <Button type="submit" disabled={disabled} loading={fetcher.state !== 'idle'}>
              Add member
            </Button>
          </div>
        </fetcher.Form>
      )}
    </Card>
  );
}
