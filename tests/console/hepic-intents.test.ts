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
    const calls = [vi.spyOn(hepic, 'createHepicToken'), vi.spyOn(hepic, 'addHepicUser'), vi.spyOn(hepic, 'removeHepicUser'), vi.spyOn(hepic, 'updateHepicUserRole'), vi.spyOn(hepic, 'setHepicAutoAdd')];
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

  it('the cancel intent re-submits the previous group unconfirmed; the update intent passes the confirmed flag', async () => {
    const update = vi.spyOn(hepic, 'updateHepicUserRole').mockResolvedValue({ message: 'prompt', confirm: true, userId: 'u', group: 'user' });
    const user = '00000000-0000-4000-8000-000000000009';
    await runHepicIntent(7, form({ intent: 'CANCEL_UPDATE_HEPIC_USER_ROLE', 'users[0].user_id': user, 'users[0].group': 'user', hasConfirmed: 'true' }));
    expect(update).toHaveBeenLastCalledWith(7, user, 'user', false);
    await runHepicIntent(7, form({ intent: 'UPDATE_HEPIC_USER_ROLE', 'users[0][user_id]': user, 'users[0][group]': 'admin', hasConfirmed: 'true' }));
    expect(update).toHaveBeenLastCalledWith(7, user, 'admin', true);
  });
});
