import { describe, expect, it } from 'vitest';
import { parseSettings, resolveIdentityServerUrl, resolveUrl, SettingsError } from '../../src/config/settings';

const version = { VITE_PACKAGE_VERSION: '2.28.13' };

describe('build-time settings', () => {
  it('defaults to the local platform with origin-relative URLs', () => {
    const settings = parseSettings(version);
    expect(settings.apiUrl).toBe('/api/');
    expect(settings.identityServer).toEqual({ url: '/', realm: 'observability', clientId: 'console' });
    expect(settings.telemetryCollectUrl).toBe('/api/telemetry');
    expect(settings.cardMock).toBe(true);
    expect(settings.hideBilling).toBe(false);
    expect(settings.packageVersion).toBe('2.28.13');
  });

  it('resolves relative settings against any origin, so one build runs on any port', () => {
    expect(resolveUrl('/api/', 'http://127.0.0.1:41234')).toBe('http://127.0.0.1:41234/api/');
    expect(resolveIdentityServerUrl('/', 'http://127.0.0.1:41234')).toBe('http://127.0.0.1:41234');
    expect(resolveUrl('https://api.example.com/v1/', 'http://127.0.0.1:1')).toBe('https://api.example.com/v1/');
  });

  it('names a missing required setting', () => {
    expect(() => parseSettings({ ...version, VITE_API_URL: '' })).toThrow(/VITE_API_URL is required/);
    expect(() => parseSettings({})).toThrow(/VITE_PACKAGE_VERSION is required/);
  });

  it('names every malformed setting at once', () => {
    try {
      parseSettings({ ...version, VITE_ENVIRONMENT: 'staging', VITE_API_URL: 'ftp://x', VITE_CARD_MOCK: 'yes', VITE_PAYMENT_PUBLIC_KEY: 'sk_live_x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsError);
      const problems = (error as SettingsError).problems.join('\n');
      expect(problems).toMatch(/VITE_ENVIRONMENT must be one of production, dev, local/);
      expect(problems).toMatch(/VITE_API_URL must be an http\(s\) URL/);
      expect(problems).toMatch(/VITE_CARD_MOCK must be one of true, false/);
      expect(problems).toMatch(/VITE_PAYMENT_PUBLIC_KEY/);
    }
  });

  it('keeps the billing flag separate from the card mock flag', () => {
    const settings = parseSettings({ ...version, VITE_CARD_MOCK: 'true', VITE_HIDE_BILLING: 'true' });
    expect(settings.hideBilling).toBe(true);
    expect(parseSettings({ ...version, VITE_CARD_MOCK: 'true' }).hideBilling).toBe(false);
  });

  it('adds the trailing slash the HTTP client expects on the API URL', () => {
    expect(parseSettings({ ...version, VITE_API_URL: 'https://api.example.com/v1' }).apiUrl).toBe('https://api.example.com/v1/');
  });

  it('takes the legal pages linked from the terms boxes from settings, with documented defaults', () => {
    const defaults = parseSettings(version);
    expect([defaults.privacyPolicyUrl, defaults.termsUrl]).toEqual(['https://qryn.cloud/privacy', 'https://qryn.cloud/terms']);
    expect([defaults.paymentPrivacyUrl, defaults.paymentTermsUrl]).toEqual(['https://stripe.com/privacy', 'https://stripe.com/legal/consumer']);
    const own = parseSettings({ ...version, VITE_PRIVACY_POLICY_URL: '/legal/privacy', VITE_TERMS_URL: 'https://example.com/terms' });
    expect([own.privacyPolicyUrl, own.termsUrl]).toEqual(['/legal/privacy', 'https://example.com/terms']);
    expect(() => parseSettings({ ...version, VITE_PAYMENT_TERMS_URL: 'javascript:alert(1)' })).toThrow(/VITE_PAYMENT_TERMS_URL must be an http\(s\) URL/);
  });
});
