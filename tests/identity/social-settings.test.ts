// The settings of social sign-in (SOCIAL_OIDC_*, SOCIAL_STAND_IN*): all or nothing, https issuers, and the local
// stand-in only where nobody else can reach it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

const provider = { SOCIAL_OIDC_ISSUER: 'https://accounts.example.com', SOCIAL_OIDC_CLIENT_ID: 'console', SOCIAL_OIDC_CLIENT_SECRET: 's3cret' };

describe('social sign-in settings', () => {
  it('reads a configured provider, with the label defaulting to the issuer host and the connection to google-oauth2', () => {
    expect(loadConfig(provider).socialOidc).toEqual({
      issuer: 'https://accounts.example.com',
      clientId: 'console',
      clientSecret: 's3cret',
      label: 'accounts.example.com',
      connection: 'google-oauth2',
    });
    const labelled = loadConfig({ ...provider, SOCIAL_OIDC_LABEL: 'Google', SOCIAL_OIDC_CONNECTION: 'acme-sso' }).socialOidc;
    expect(labelled).toMatchObject({ label: 'Google', connection: 'acme-sso' });
    // The issuer is kept exactly as given: it is compared with the discovery document's and the id_token's.
    expect(loadConfig({ ...provider, SOCIAL_OIDC_ISSUER: 'https://tenant.example.com/' }).socialOidc?.issuer).toBe('https://tenant.example.com/');
  });

  it('stops the start on a half-configured provider, naming what is missing', () => {
    expect(() => loadConfig({ ...provider, SOCIAL_OIDC_CLIENT_ID: '' })).toThrow(/SOCIAL_OIDC_CLIENT_ID is missing/);
    expect(() => loadConfig({ ...provider, SOCIAL_OIDC_CLIENT_SECRET: '' })).toThrow(/SOCIAL_OIDC_CLIENT_SECRET is missing/);
    expect(() => loadConfig({ SOCIAL_OIDC_CLIENT_ID: 'x', SOCIAL_OIDC_LABEL: 'Google' })).toThrow(/SOCIAL_OIDC_CLIENT_ID, SOCIAL_OIDC_LABEL set without SOCIAL_OIDC_ISSUER/);
    expect(() => loadConfig({ ...provider, SOCIAL_OIDC_ISSUER: 'not a url' })).toThrow(/must be the provider's issuer URL/);
  });

  it('accepts plain http only for a provider on this machine', () => {
    expect(() => loadConfig({ ...provider, SOCIAL_OIDC_ISSUER: 'http://accounts.example.com' })).toThrow(/must use https/);
    expect(loadConfig({ ...provider, SOCIAL_OIDC_ISSUER: 'http://127.0.0.1:9999' }).socialOidc?.issuer).toBe('http://127.0.0.1:9999');
  });

  it('starts the stand-in by default only outside production, on a loopback address, without a configured provider', () => {
    expect(loadConfig({}).socialStandIn).toEqual({ enabled: true, port: 8081 });
    expect(loadConfig({ PORT: '0' }).socialStandIn).toEqual({ enabled: true, port: 0 });
    expect(loadConfig({ SOCIAL_STAND_IN_PORT: '9100' }).socialStandIn?.port).toBe(9100);
    expect(loadConfig({ NODE_ENV: 'production' }).socialStandIn?.enabled).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0' }).socialStandIn?.enabled).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', SOCIAL_STAND_IN: 'true' }).socialStandIn?.enabled).toBe(true);
    expect(loadConfig({ SOCIAL_STAND_IN: 'false' }).socialStandIn?.enabled).toBe(false);
    expect(loadConfig(provider).socialStandIn?.enabled).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', SOCIAL_STAND_IN: 'true' })).toThrow(/refused with NODE_ENV=production/);
    expect(() => loadConfig({ SOCIAL_STAND_IN: 'yes' })).toThrow(/SOCIAL_STAND_IN must be true or false/);
  });
});
