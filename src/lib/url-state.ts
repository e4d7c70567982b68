// The console's state in the address (spec 000: sidebar, user-menu, select-project, action=…, edit=…, modal=…,
// project): one set of rules, read on load as well as written on click, so a reload or a shared link shows the same
// screen. Pure functions over URLSearchParams (unit-tested per parameter kind); the React side is
// src/views/url-state/use-url-state.ts.

/** The parameter kinds: an open/closed toggle, an action naming its subject, and plain named values. */
export type UrlParamKind = 'toggle' | 'action' | 'value';

export const URL_PARAMS = {
  sidebar: 'toggle',
  'user-menu': 'toggle',
  'select-project': 'toggle',
  action: 'action',
  edit: 'value',
  modal: 'value',
  project: 'value',
} as const satisfies Record<string, UrlParamKind>;

export type UrlParamName = keyof typeof URL_PARAMS;
export type ToggleParam = { [K in UrlParamName]: (typeof URL_PARAMS)[K] extends 'toggle' ? K : never }[UrlParamName];
export type ValueParam = { [K in UrlParamName]: (typeof URL_PARAMS)[K] extends 'value' ? K : never }[UrlParamName];

const OPEN = 'open';

/** toggle: `name=open` means open; anything else (or nothing) closed. */
export function readToggle(params: URLSearchParams, name: ToggleParam): boolean {
  return params.get(name) === OPEN;
}

export function writeToggle(params: URLSearchParams, name: ToggleParam, open: boolean): URLSearchParams {
  const next = new URLSearchParams(params);
  if (open) next.set(name, OPEN);
  else next.delete(name);
  return next;
}

/** action: `action={prefix}{subject id}` (delete-org-user-{id}, delete-project-{id}); the id, or null. */
export function readAction(params: URLSearchParams, prefix: string): string | null {
  const value = params.get('action');
  if (!value || !value.startsWith(prefix)) return null;
  const id = value.slice(prefix.length);
  return id === '' ? null : id;
}

export function writeAction(params: URLSearchParams, prefix: string, id: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (id !== null) next.set('action', `${prefix}${id}`);
  // Clearing removes only this action: another screen's action in the same address is left alone.
  else if (readAction(params, prefix) !== null) next.delete('action');
  return next;
}

/** action without a subject: `action=create-token`; true when the address names exactly this action. */
export function hasActionFlag(params: URLSearchParams, action: string): boolean {
  return params.get('action') === action;
}

export function writeActionFlag(params: URLSearchParams, action: string, on: boolean): URLSearchParams {
  const next = new URLSearchParams(params);
  if (on) next.set('action', action);
  // As with an action naming a subject: clearing leaves another screen's action alone.
  else if (hasActionFlag(params, action)) next.delete('action');
  return next;
}

/** value: `edit=password`, `modal=open`, `project=…`; the value, or null. */
export function readValue(params: URLSearchParams, name: ValueParam): string | null {
  const value = params.get(name);
  return value === null || value === '' ? null : value;
}

export function writeValue(params: URLSearchParams, name: ValueParam, value: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value !== null) next.set(name, value);
  else next.delete(name);
  return next;
}

/**
 * Where a dialog owned by a machine keeps its subject in the address. The spec writes it three ways: in the action
 * (`action=delete-org-user-{id}`), as the action alone (`action=create-token`, subject ''), and as an action or modal
 * with the subject in a parameter of its own (`action=delete-token&token_id={id}`, `modal=open&plan={id}`). `read`
 * gives the subject asked for, or null when the address does not name this dialog; `write(null)` removes only it.
 */
export interface DialogAddress {
  read: (params: URLSearchParams) => string | null;
  write: (params: URLSearchParams, subject: string | null) => URLSearchParams;
}

export function subjectInAction(prefix: string): DialogAddress {
  return { read: (params) => readAction(params, prefix), write: (params, subject) => writeAction(params, prefix, subject) };
}

export function actionAlone(action: string): DialogAddress {
  return {
    read: (params) => (hasActionFlag(params, action) ? '' : null),
    write: (params, subject) => writeActionFlag(params, action, subject !== null),
  };
}

/** `{param}={value}&{subjectParam}={id}`; a missing subject reads as '' (no such subject, so the address is cleared). */
export function subjectBeside(param: 'action' | 'modal', value: string, subjectParam: string): DialogAddress {
  return {
    read: (params) => (params.get(param) === value ? (params.get(subjectParam) ?? '') : null),
    write: (params, subject) => {
      const next = new URLSearchParams(params);
      if (subject !== null) {
        next.set(param, value);
        next.set(subjectParam, subject);
      } else if (params.get(param) === value) {
        next.delete(param);
        next.delete(subjectParam);
      }
      return next;
    },
  };
}

/**
 * What a dialog owned by a machine does about the address, once per change of either:
 * - `open`: the address asks for it, the data is loaded, the subject exists, the machine is closed: open it;
 * - `wait`: the address asks but the data is still loading: keep the parameter (stripping it here was the bug that
 *   lost the delete-member deep link on reload);
 * - `clear`: the address asks for a subject that is not there (or not allowed) once loaded, or the dialog was open
 *   and has closed: remove the parameter;
 * - `none`: nothing to do.
 */
export type UrlDialogDecision = 'open' | 'wait' | 'clear' | 'none';

export function urlDialogDecision(input: {
  requested: boolean;
  ready: boolean;
  subjectAvailable: boolean;
  dialogOpen: boolean;
  /** The dialog was open at the previous check and is closed now. */
  justClosed: boolean;
}): UrlDialogDecision {
  if (!input.requested) return 'none';
  if (input.justClosed) return 'clear';
  if (input.dialogOpen) return 'none';
  if (!input.ready) return 'wait';
  return input.subjectAvailable ? 'open' : 'clear';
}
