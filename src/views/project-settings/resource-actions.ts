// Form targets of the project area (spec 000 section 2 /resources/add-to-project, /resources/create-project): route
// actions that check the posted intent, validate with the contract's schema and call the API. A form posts to them
// with react-router's fetcher, so the page stays where it is and reads the answer from fetcher.data.
import { redirect, type ActionFunctionArgs } from 'react-router';
import { decodeInput, type FieldErrors } from '../../../contract/common';
import { ErrorText } from '../../../contract/errors';
import { AddProjectUserBody, CreateProjectBody } from '../../../contract/projects';
import { ApiError, ValidationError, fieldErrorsOf } from '../../services/errors';
import { FORM_INTENTS, isAllowedIntent } from '../../services/form-intents';
import { addProjectUser, createProject } from '../../services/projects';
import { rememberSelectedProject } from '../../services/selected-project';
import { toast } from '../../services/toast-store';

export type ResourceActionResult = { ok: true; message: string } | { ok: false; fieldErrors?: FieldErrors; error?: string };

/** A failed call: field errors stay at the fields; other errors were already toasted by the HTTP client. */
function failure(error: unknown): ResourceActionResult {
  if (error instanceof ValidationError) return { ok: false, fieldErrors: fieldErrorsOf(error) };
  if (error instanceof ApiError) return { ok: false, error: error.description || error.message };
  throw error;
}

function invalidIntent(): ResourceActionResult {
  toast.error(ErrorText.invalidIntent);
  return { ok: false, error: ErrorText.invalidIntent };
}

/** POST /resources/add-to-project {intent: 'add-user-to-project', project_id, user_id}. */
export async function addToProjectAction({ request }: ActionFunctionArgs): Promise<ResourceActionResult> {
  const form = await request.formData();
  if (!isAllowedIntent(form.get('intent'), [FORM_INTENTS.addUserToProject])) return invalidIntent();
  const outcome = decodeInput(AddProjectUserBody, { user_id: String(form.get('user_id') ?? ''), project_id: Number(form.get('project_id')) });
  if (!outcome.ok) return { ok: false, fieldErrors: outcome.errors };
  try {
    const answer = await addProjectUser({ projectId: outcome.value.project_id, userId: outcome.value.user_id });
    toast.success(answer.message);
    return { ok: true, message: answer.message };
  } catch (error) {
    return failure(error);
  }
}

/** POST /resources/create-project {intent: 'create-project', name}: creates the project and opens it. */
export async function createProjectAction({ request }: ActionFunctionArgs): Promise<ResourceActionResult | Response> {
  const form = await request.formData();
  if (!isAllowedIntent(form.get('intent'), [FORM_INTENTS.createProject])) return invalidIntent();
  const outcome = decodeInput(CreateProjectBody, { name: String(form.get('name') ?? '') });
  if (!outcome.ok) return { ok: false, fieldErrors: outcome.errors };
  try {
    const project = await createProject({ name: outcome.value.name });
    toast.success(project.message);
    rememberSelectedProject(project.slug);
    return redirect(`/${project.slug}`);
  } catch (error) {
    return failure(error);
  }
}

/** A GET of a form target has nothing to show: back to the projects. */
export function resourceLoader(): Response {
  return redirect('/projects');
}
