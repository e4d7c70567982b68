import { describe, expect, it } from 'vitest';
import { DEFAULT_PROJECT_LIMIT_PER_ACCOUNT, loadConfig } from '../../server/config';

// Settings read from the environment: a mistyped number stops the start with the setting's name, rather than
// turning into NaN (which would switch a limit off without a word).
describe('platform settings', () => {
  it('uses the documented defaults when the numeric settings are unset or empty', () => {
    const config = loadConfig({ PROJECT_LIMIT_PER_ACCOUNT: '', REAUTHENTICATION_MAX_AGE: undefined });
    expect(config.projectLimitPerAccount).toBe(DEFAULT_PROJECT_LIMIT_PER_ACCOUNT);
    expect(config.reauthenticationMaxAgeSeconds).toBe(300);
    expect(config.signInProtection.account.freeFailures).toBe(5);
  });

  it('takes whole numbers', () => {
    const config = loadConfig({ PROJECT_LIMIT_PER_ACCOUNT: '7', REAUTHENTICATION_MAX_AGE: '60', BRUTE_FORCE_FREE_FAILURES: '0' });
    expect(config.projectLimitPerAccount).toBe(7);
    expect(config.reauthenticationMaxAgeSeconds).toBe(60);
    expect(config.signInProtection.account.freeFailures).toBe(0);
  });

  it.each([
    ['PROJECT_LIMIT_PER_ACCOUNT', 'ten', /PROJECT_LIMIT_PER_ACCOUNT must be a whole number of 1 or more \(got "ten"\)/],
    ['PROJECT_LIMIT_PER_ACCOUNT', '0', /PROJECT_LIMIT_PER_ACCOUNT must be a whole number of 1 or more/],
    ['REAUTHENTICATION_MAX_AGE', '2.5', /REAUTHENTICATION_MAX_AGE must be a whole number of 0 or more/],
    ['BRUTE_FORCE_LOCKOUT_FAILURES', '-1', /BRUTE_FORCE_LOCKOUT_FAILURES must be a whole number/],
  ])('refuses %s=%s with the setting named', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
