// 'Invite new member' (spec 000 section 2 Organization Settings, section 5 Invite): email, read-only, projects.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { InviteBody } from '../../../contract/invitations';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { Field, Input } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { ValidationError, fieldErrorsOf } from '../../services/errors';
import { inviteMember } from '../../services/invitations';
import { toast } from '../../services/toast-store';

function withoutField(errors: FieldErrors, field: string): FieldErrors {
  if (!(field in errors)) return errors;
  const { [field]: _removed, ...rest } = errors;
  return rest;
}

export interface InviteProject {
  id: number;
  name: string;
}

export function InviteMemberCard({ projects, onInvited }: { projects: InviteProject[]; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [projectIds, setProjectIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const invite = useMutation({
    mutationFn: inviteMember,
    onSuccess: (response) => {
      toast.success(response.message);
      setEmail('');
      setReadOnly(false);
      setProjectIds([]);
      setErrors({});
      onInvited();
    },
    onError: (error) => {
      if (error instanceof ValidationError) {
        setErrors(fieldErrorsOf(error));
      }
    },
  });
  return (
    <Card title="Invite new member" description="The invitation is sent by email. Leave the projects empty to give access to every project of the organization.">
      <form
        aria-label="Invite new member"
        noValidate
        className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
        onSubmit={(event) => {
          event.preventDefault();
          const outcome = decodeInput(InviteBody, { email, read_only: readOnly, project_ids: projectIds.map(Number) });
          if (!outcome.ok) {
            setErrors(outcome.errors);
            return;
          }
          setErrors({});
          invite.mutate({ email: outcome.value.email, readOnly, projectIds: projectIds.map(Number) });
        }}
      >
        <Field label="Email" required errorText={errors.email?.[0]}>
          <Input
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              // A message about the address typed before (the server's 'already a member' included) no longer applies.
              setErrors((current) => withoutField(current, 'email'));
            }}
          />
        </Field>
        {projects.length > 0 && (
          <Select
            label={projects.length > 1 ? 'Projects' : 'Project'}
            multiple={projects.length > 1}
            items={projects.map((project) => ({ value: String(project.id), label: project.name }))}
            value={projectIds}
            onValueChange={(next) => {
              setProjectIds(next);
              setErrors((current) => withoutField(current, 'project_ids'));
            }}
            placeholder="All projects"
            errorText={errors.project_ids?.[0]}
            invalid={Boolean(errors.project_ids)}
          />
        )}
        <Checkbox name="read_only" checked={readOnly} onCheckedChange={setReadOnly}>
          Read-only access
        </Checkbox>
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </div>
      </form>
    </Card>
  );
}
