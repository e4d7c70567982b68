// @vitest-environment jsdom
// A shared address of a project held by another of the user's accounts: which organization the tab follows, and
// that a switch which did not bring the project is not repeated (no reload loop), while a later one is.
import { beforeEach, describe, expect, it } from 'vitest';
import { accountToFollow, forgetFollowedProject } from '../../src/services/account-mode';
import { STORAGE_KEYS } from '../../src/services/browser-storage';

describe('following a shared project into its account', () => {
  beforeEach(() => sessionStorage.clear());

  it('follows the holding organization, or the personal account, when it is not the current one', () => {
    expect(accountToFollow({ projectId: 7, current: null, holder: 3 })).toBe(3);
    expect(accountToFollow({ projectId: 7, current: 3, holder: null })).toBeNull();
    expect(accountToFollow({ projectId: 7, current: 4, holder: 3 })).toBe(3);
  });

  it('stays when the current account holds it or no account does', () => {
    expect(accountToFollow({ projectId: 7, current: 3, holder: 3 })).toBeUndefined();
    expect(accountToFollow({ projectId: 7, current: null, holder: undefined })).toBeUndefined();
  });

  it('does not switch again in this tab for a project whose switch did not bring it, however much later; another project does', () => {
    sessionStorage.setItem(STORAGE_KEYS.followedProject, `7@${Date.now() - 3_600_000}`);
    expect(accountToFollow({ projectId: 7, current: null, holder: 3 })).toBeUndefined();
    expect(accountToFollow({ projectId: 8, current: null, holder: 3 })).toBe(3);
    forgetFollowedProject();
    expect(accountToFollow({ projectId: 7, current: null, holder: 3 })).toBe(3);
  });
});
