// The form intents of the Hepic page (spec 001 §7 Hepic), posted to /{projectSlug}/stack/hepic. Each intent is
// validated with the contract's schema (the server checks the same again) and becomes one API call. An intent that
// is not in the list is refused before any call: 400 'This operation is not valid' (spec §5 Generic).
import { decodeInput, type FieldErrors } from '../../contract/common';
import { ErrorText } from '../../contract/errors';
import { AddHepicUsersBody, CreateHepicTokenBody, HepicToggleBody, RemoveHepicUserQuery, UpdateHepicRoleBody, type HepicGroup } from '../../contract/hepic';
import { ApiError, ValidationError, fieldErrorsOf } from './errors';
import { addHepicUser, createHepicToken, removeHepicUser, rotateHepicKey, setHepicAutoAdd, updateHepicUserRole } from './hepic';

export const HEPIC_INTENTS = [
  'CREATE_HEPIC_TOKEN',
  'ROTATE_HEPIC_KEY',
  'TOGGLE_HEPIC_AUTO_ADD_USERS',
  'ADD_HEPIC_USER',
  'REMOVE_HEPIC_USER',
  'UPDATE_HEPIC_USER_ROLE',
  'CANCEL_UPDATE_HEPIC_USER_ROLE',
] as const;
export type HepicIntent = (typeof HEPIC_INTENTS)[number];

export const INVALID_OPERATION_DESCRIPTION = 'The form sent an operation this page does not know. Nothing has been changed.';

export type HepicIntentResult =
  /** `token`: the new scoped token or ingestion key, in this answer only (the server keeps its hash). */
  | { ok: true; intent: HepicIntent; message: string; confirm?: boolean; token?: string; enabled?: boolean }
  | { ok: false; status: number; intent: string | null; error?: string; description?: string; fieldErrors?: FieldErrors };

const text = (form: FormData, ...names: string[]) => {
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === 'string') return value;
  }
  return '';
};

/** users[0][user_id] (ADD), users[0].user_id (CANCEL): both spellings of the first entry are read. */
const firstUser = (form: FormData) => ({
  user_id: text(form, 'users[0][user_id]', 'users[0].user_id', 'user_id'),
  group: text(form, 'users[0][group]', 'users[0].group', 'group'),
});

// Spec 001 §8: schema validation errors of the integrations return 400 with the fields and their messages.
const invalid = (errors: FieldErrors, intent: HepicIntent): HepicIntentResult => ({ ok: false, status: 400, intent, fieldErrors: errors });

function failure(error: unknown, intent: HepicIntent): HepicIntentResult {
  if (error instanceof ValidationError) return { ok: false, status: 400, intent, fieldErrors: fieldErrorsOf(error) };
  if (error instanceof ApiError) return { ok: false, status: error.status, intent, error: error.message, description: error.description };
  throw error;
}

export function isHepicIntent(value: unknown): value is HepicIntent {
  return typeof value === 'string' && (HEPIC_INTENTS as readonly string[]).includes(value);
}

export async function runHepicIntent(projectId: number, form: FormData): Promise<HepicIntentResult> {
  const intent = form.get('intent');
  if (!isHepicIntent(intent)) {
    return { ok: false, status: 400, intent: typeof intent === 'string' ? intent : null, error: ErrorText.invalidOperation, description: INVALID_OPERATION_DESCRIPTION };
  }
  try {
    switch (intent) {
      case 'CREATE_HEPIC_TOKEN': {
        const outcome = decodeInput(CreateHepicTokenBody, { name: text(form, 'name'), scope: 'read', ttl_days: Number(text(form, 'ttlDays', 'ttl_days') || Number.NaN) });
        if (!outcome.ok) return invalid(outcome.errors, intent);
        const answer = await createHepicToken(projectId, { name: outcome.value.name, scope: 'read', ttlDays: outcome.value.ttl_days });
        return { ok: true, intent, message: answer.message, token: answer.token.token ?? undefined };
      }
      case 'ROTATE_HEPIC_KEY': {
        const answer = await rotateHepicKey(projectId);
        return { ok: true, intent, message: answer.message, token: answer.apiKey };
      }
      case 'TOGGLE_HEPIC_AUTO_ADD_USERS': {
        const outcome = decodeInput(HepicToggleBody, { enabled: text(form, 'enabled') === 'true' });
        if (!outcome.ok) return invalid(outcome.errors, intent);
        const answer = await setHepicAutoAdd(projectId, outcome.value.enabled);
        return { ok: true, intent, message: answer.message, enabled: answer.enabled };
      }
      case 'ADD_HEPIC_USER': {
        const outcome = decodeInput(AddHepicUsersBody, { users: [firstUser(form)] });
        if (!outcome.ok) return invalid(flattenUsers(outcome.errors), intent);
        const [user] = outcome.value.users;
        return { ok: true, intent, message: (await addHepicUser(projectId, user.user_id, user.group)).message };
      }
      case 'REMOVE_HEPIC_USER': {
        const outcome = decodeInput(RemoveHepicUserQuery, { user_id: firstUser(form).user_id });
        if (!outcome.ok) return invalid(outcome.errors, intent);
        return { ok: true, intent, message: (await removeHepicUser(projectId, outcome.value.user_id)).message };
      }
      case 'UPDATE_HEPIC_USER_ROLE':
      case 'CANCEL_UPDATE_HEPIC_USER_ROLE': {
        // The cancel intent re-submits the previous group unconfirmed: the server answers the confirm state again.
        const hasConfirmed = intent === 'UPDATE_HEPIC_USER_ROLE' && text(form, 'hasConfirmed') === 'true';
        const outcome = decodeInput(UpdateHepicRoleBody, { users: [firstUser(form)], has_confirmed: hasConfirmed });
        if (!outcome.ok) return invalid(flattenUsers(outcome.errors), intent);
        const [user] = outcome.value.users;
        const answer = await updateHepicUserRole(projectId, user.user_id, user.group as HepicGroup, hasConfirmed);
        return { ok: true, intent, message: answer.message, confirm: answer.confirm };
      }
    }
  } catch (error) {
    return failure(error, intent);
  }
}

/** 'users.0.user_id' → 'user_id': the form has one entry, its fields carry the messages. */
function flattenUsers(errors: FieldErrors): FieldErrors {
  const flat: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) flat[key.replace(/^users(\.\d+)?\.?/, '') || 'user_id'] = messages;
  return flat;
}
