// The one query-parameter mechanism (src/lib/url-state.ts), tested once per parameter kind, and the decision a
// machine-owned dialog takes about the address (issue 17).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionAlone, hasActionFlag, readAction, subjectBeside, subjectInAction, readToggle, writeActionFlag, readValue, URL_PARAMS, urlDialogDecision, writeAction, writeToggle, writeValue } from '../../src/lib/url-state';

const params = (text: string) => new URLSearchParams(text);

describe('query parameters of the console', () => {
  it('names every parameter of the spec with its kind', () => {
    expect(URL_PARAMS).toEqual({
      sidebar: 'toggle',
      'user-menu': 'toggle',
      'select-project': 'toggle',
      action: 'action',
      edit: 'value',
      modal: 'value',
      project: 'value',
    });
  });

  it('toggle: open only with =open; writing round-trips and keeps the other parameters', () => {
    for (const name of ['sidebar', 'user-menu', 'select-project'] as const) {
      expect(readToggle(params(`${name}=open`), name)).toBe(true);
      expect(readToggle(params(`${name}=closed`), name)).toBe(false);
      expect(readToggle(params(''), name)).toBe(false);
      const opened = writeToggle(params('edit=profile'), name, true);
      expect(opened.toString()).toBe(`edit=profile&${name}=open`);
      expect(writeToggle(opened, name, false).toString()).toBe('edit=profile');
    }
  });

  it('action: reads the subject id after its prefix, ignores other actions, clears only its own', () => {
    expect(readAction(params('action=delete-org-user-abc-123'), 'delete-org-user-')).toBe('abc-123');
    expect(readAction(params('action=delete-project-7'), 'delete-org-user-')).toBeNull();
    expect(readAction(params('action=delete-org-user-'), 'delete-org-user-')).toBeNull();
    expect(writeAction(params('action=delete-project-7'), 'delete-org-user-', null).toString()).toBe('action=delete-project-7');
    expect(writeAction(params('x=1&action=delete-org-user-5'), 'delete-org-user-', null).toString()).toBe('x=1');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.constantFrom('delete-org-user-', 'delete-project-', 'delete-token-'), (id, prefix) => {
        const written = writeAction(params('sidebar=open'), prefix, id);
        // Through the address bar and back: the same id.
        return readAction(params(written.toString()), prefix) === id && readToggle(written, 'sidebar');
      }),
    );
  });

  it('action without a subject (action=create-token): exact match only, clears only itself', () => {
    expect(hasActionFlag(params('action=create-token'), 'create-token')).toBe(true);
    expect(hasActionFlag(params('action=create-token-2'), 'create-token')).toBe(false);
    expect(hasActionFlag(params(''), 'create-token')).toBe(false);
    const opened = writeActionFlag(params('tab=auth'), 'create-token', true);
    expect(opened.toString()).toBe('tab=auth&action=create-token');
    expect(writeActionFlag(opened, 'create-token', false).toString()).toBe('tab=auth');
    expect(writeActionFlag(params('action=delete-project-4'), 'create-token', false).toString()).toBe('action=delete-project-4');
  });

  it('value: edit, modal and project read back what was written; empty means absent', () => {
    for (const name of ['edit', 'modal', 'project'] as const) {
      fc.assert(fc.property(fc.string({ minLength: 1 }), (value) => readValue(params(writeValue(params(''), name, value).toString()), name) === value));
      expect(readValue(params(`${name}=`), name)).toBeNull();
      expect(writeValue(params(`${name}=x&a=1`), name, null).toString()).toBe('a=1');
    }
  });
});

describe("a machine-owned dialog's address, the three ways the spec writes it", () => {
  it('subject in the action (action=delete-org-user-{id})', () => {
    const address = subjectInAction('delete-org-user-');
    expect(address.read(params('action=delete-org-user-u1'))).toBe('u1');
    expect(address.read(params('action=delete-project-3'))).toBeNull();
    expect(address.write(params('sidebar=open'), 'u2').toString()).toBe('sidebar=open&action=delete-org-user-u2');
    expect(address.write(params('action=delete-project-3'), null).toString()).toBe('action=delete-project-3');
  });

  it("the action alone (action=create-token): the subject is ''", () => {
    const address = actionAlone('create-token');
    expect(address.read(params('action=create-token'))).toBe('');
    expect(address.read(params('action=delete-token&token_id=1'))).toBeNull();
    expect(address.write(params(''), '').toString()).toBe('action=create-token');
    expect(address.write(params('action=create-token&x=1'), null).toString()).toBe('x=1');
  });

  it('the subject beside it (action=delete-token&token_id={id}, modal=open&plan={id}): both written, both cleared', () => {
    const token = subjectBeside('action', 'delete-token', 'token_id');
    const plan = subjectBeside('modal', 'open', 'plan');
    expect(token.read(params('action=delete-token&token_id=7'))).toBe('7');
    // Asked for without its subject: '' (no such subject, so the dialog clears the address).
    expect(token.read(params('action=delete-token'))).toBe('');
    expect(token.read(params('action=create-token&token_id=7'))).toBeNull();
    expect(token.write(params('action=create-token'), null).toString()).toBe('action=create-token');
    expect(plan.write(params('modal=open&plan=p1&tab=config'), null).toString()).toBe('tab=config');
    fc.assert(
      fc.property(fc.string(), (id) => {
        const written = plan.write(params('sidebar=open'), id);
        return plan.read(params(written.toString())) === id && token.read(written) === null && readToggle(written, 'sidebar');
      }),
    );
  });
});

describe('a machine-owned dialog and the address', () => {
  const base = { requested: true, ready: true, subjectAvailable: true, dialogOpen: false, justClosed: false };
  it('opens once the data is there, waits while it loads (the reload case), clears an unknown subject', () => {
    expect(urlDialogDecision(base)).toBe('open');
    expect(urlDialogDecision({ ...base, ready: false })).toBe('wait');
    expect(urlDialogDecision({ ...base, subjectAvailable: false })).toBe('clear');
  });
  it('clears the address when the dialog closes, does nothing while it is open or when nothing is asked', () => {
    expect(urlDialogDecision({ ...base, justClosed: true })).toBe('clear');
    expect(urlDialogDecision({ ...base, dialogOpen: true })).toBe('none');
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (ready, subjectAvailable, dialogOpen, justClosed) =>
        urlDialogDecision({ requested: false, ready, subjectAvailable, dialogOpen, justClosed }) === 'none',
      ),
    );
  });
});
