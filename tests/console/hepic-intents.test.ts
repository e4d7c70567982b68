import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { ErrorText } from '../../contract/errors';
import { SELECT_MEMBER_MESSAGE, TOKEN_NAME_REQUIRED_MESSAGE, TOKEN_TTL_MESSAGE } from '../../contract/hepic';
import * as hepic from '../../src/services/hepic';
import { HEPIC_INTENTS, runHepicIntent } from '../../src/services/hepic-intents';

// The intent dispatcher of /{projectSlug}/stack/hepic: unknown intents are refused before any call with the spec's
// 400 'This operation is not valid'; each known intent is validated with the contract schema before its call.

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

afterEach(() => vi.restoreAllMocks());

describe('Hepic form intents', () => {
  it('refuses any intent not in the list, without a call', async () => {
    const calls = [vi.spyOn(hepic, 'createHepicToken'), vi.spyOn(hepic, 'rotateHepicKey'), vi.spyOn(hepic, 'addHepicUser'), vi.spyOn(hepic, 'removeHepicUser'), vi.spyOn(hepic, 'updateHepicUserRole'), vi.spyOn(hepic, 'setHepicAutoAdd')];
    await fc.assert(
      fc.asyncProperty(fc.option(fc.string(), { nil: undefined }).filter((s) => !(HEPIC_INTENTS as readonly (string | undefined)[]).includes(s)), async (intent) => {
        const result = await runHepicIntent(7, form(intent === undefined ? {} : { intent }));
        expect(result).toMatchObject({ ok: false, status: 400, error: ErrorText.invalidOperation });
      }),
    );
    for (const call of calls) expect(call).not.toHaveBeenCalled();
  });

  it('validates before calling: token name and TTL, the member to add', async () => {
    const create = vi.spyOn(hepic, 'createHepicToken');
    const blank = await runHepicIntent(7, form({ intent: 'CREATE_HEPIC_TOKEN', name: '', ttlDays: '0' }));
    expect(blank).toMatchObject({ ok: false, status: 400, fieldErrors: { name: [TOKEN_NAME_REQUIRED_MESSAGE], ttl_days: [TOKEN_TTL_MESSAGE] } });
    expect(create).not.toHaveBeenCalled();
    const add = vi.spyOn(hepic, 'addHepicUser');
    const noMember = await runHepicIntent(7, form({ intent: 'ADD_HEPIC_USER', 'users[0][user_id]': '', 'users[0][group]': 'user' }));
    expect(noMember).toMatchObject({ ok: false, status: 400, fieldErrors: { user_id: [SELECT_MEMBER_MESSAGE] } });
    expect(add).not.toHaveBeenCalled();
  });

  it('hands the shown-once value up: the new key of a rotation, the new scoped token', async () => {
    const rotate = vi.spyOn(hepic, 'rotateHepicKey').mockResolvedValue({ message: 'rotated', apiKey: 'hep_newKey', apiKeyHint: 'hep_newK…wKey' });
    expect(await runHepicIntent(7, form({ intent: 'ROTATE_HEPIC_KEY' }))).toEqual({ ok: true, intent: 'ROTATE_HEPIC_KEY', message: 'rotated', token: 'hep_newKey' });
    expect(rotate).toHaveBeenCalledWith(7);
    const token = { id: 1, projectId: 7, token: 'hep_scoped', tokenHint: 'hep_scop…oped', name: 'x', integrationType: 'hepic' as const, status: 'active' as const, scope: 'read', creatorUserId: null, cacheEnabled: false, createdAt: '2026-01-01T00:00:00Z', expires: '2026-01-02T00:00:00Z' };
    vi.spyOn(hepic, 'createHepicToken').mockResolvedValue({ message: 'created', token });
    expect(await runHepicIntent(7, form({ intent: 'CREATE_HEPIC_TOKEN', name: 'x', ttlDays: '1' }))).toMatchObject({ ok: true, token: 'hep_scoped' });
  });

  it('the cancel intent re-submits the previous group unconfirmed; the update intent passes the confirmed flag', async () => {
    const update = vi.spyOn(hepic, 'updateHepicUserRole').mockResolvedValue({ message: 'prompt', confirm: true, userId: 'u', group: 'user' });
    const user = '00000000-0000-4000-8000-000000000009';
    await runHepicIntent(7, form({ intent: 'CANCEL_UPDATE_HEPIC_USER_ROLE', 'users[0].user_id': user, 'users[0].group': 'user', hasConfirmed: 'true' }));
    expect(update).toHaveBeenLastCalledWith(7, user, 'user', false);
    await runHepicIntent(7, form({ intent: 'UPDATE_HEPIC_USER_ROLE', 'users[0][user_id]': user, 'users[0][group]': 'admin', hasConfirmed: 'true' }));
    expect(update).toHaveBeenLastCalledWith(7, user, 'admin', true);
  });
});
