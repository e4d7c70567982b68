import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { css } from 'styled-system/css';
import { decodeInput } from '../../../contract/common';
import { CreateProjectBody } from '../../../contract/projects';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/field';
import { ApiError, ValidationError } from '../../services/errors';
import { createProject } from '../../services/projects';
import { rememberSelectedProject } from '../../services/selected-project';
import { toast } from '../../services/toast-store';

export const PROJECT_CREATED_MESSAGE = 'Your project has successfully been created.';

/** Creates a project (POST projects/), selects it and opens it. Used in the project menu and on its own page. */
export function CreateProjectForm({ onCreated, autoFocus }: { onCreated?: () => void; autoFocus?: boolean }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: createProject,
    onSuccess: async (project) => {
      toast.success(PROJECT_CREATED_MESSAGE);
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
      rememberSelectedProject(project.slug);
      setName('');
      onCreated?.();
      navigate(`/${project.slug}`);
    },
    onError: (cause) => {
      if (cause instanceof ValidationError) {
        const details = cause.details as Record<string, string[] | undefined>;
        setError(details.name?.[0] ?? cause.message);
      } else if (cause instanceof ApiError && cause.status === 409) {
        // The account's project limit: said at the form, with what to do.
        setError(`${cause.message}. ${cause.description}`);
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The same schema as the API: the rule and its message are written once, in contract/.
    const outcome = decodeInput(CreateProjectBody, { name });
    if (!outcome.ok) {
      setError(outcome.errors.name?.[0] ?? 'Invalid project name');
      return;
    }
    setError(null);
    mutation.mutate({ name: outcome.value.name });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create a new project" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <Field label="Project name" errorText={error ?? undefined} helperText={error ? undefined : 'At least 3 characters.'}>
        <Input name="name" value={name} onChange={(event) => setName(event.target.value)} placeholder="my-project" autoComplete="off" autoFocus={autoFocus} />
      </Field>
      <Button type="submit" loading={mutation.isPending}>
        Create project
      </Button>
    </form>
  );
}
