// oidc-provider's internals that server/identity/oidc-internals.ts relies on, checked against the installed version.
// An upgrade that renames, moves or changes one of them fails here with its name, before any sign-in breaks.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Provider from 'oidc-provider';
import * as refreshTokenGrant from 'oidc-provider/lib/actions/grants/refresh_token.js';
import * as grantHelpers from 'oidc-provider/lib/helpers/grants.js';
import { describe, expect, it } from 'vitest';
import {
  addRefreshTokenField,
  alwaysIncludeSid,
  currentContext,
  LOGOUT_FORM_ID,
  setRedirectUriChecks,
  setRefreshTokenValueGenerator,
} from '../../server/identity/oidc-internals';

const source = (file: string) => readFile(path.resolve('node_modules/oidc-provider/lib', file), 'utf8');

function bareProvider(): Provider {
  return new Provider('http://127.0.0.1:1/realms/test', {
    clients: [{ client_id: 'c', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:1/'], grant_types: ['authorization_code', 'refresh_token'] }],
    features: { devInteractions: { enabled: false } },
    ttl: { RefreshToken: 60 },
  });
}

describe('oidc-provider internals used by the identity server', () => {
  it('the version is the one these checks were written for (9.x)', async () => {
    const pkg = JSON.parse(await readFile(path.resolve('node_modules/oidc-provider/package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toMatch(/^9\./);
  });

  it('the built-in refresh_token grant: handler(provider, helpers, ctx) and its parameter set', () => {
    expect(typeof refreshTokenGrant.handler).toBe('function');
    expect(refreshTokenGrant.handler.length).toBe(3);
    expect(refreshTokenGrant.parameters).toBeInstanceOf(Set);
    expect([...refreshTokenGrant.parameters]).toEqual(expect.arrayContaining(['refresh_token', 'scope']));
  });

  it('the grant helpers the handler destructures are all exported by lib/helpers/grants.js', async () => {
    const handlerSource = await source('actions/grants/refresh_token.js');
    const destructured = /const \{([^}]+)\} = helpers;/.exec(handlerSource)?.[1];
    expect(destructured, 'refresh_token.js no longer destructures its helpers').toBeDefined();
    for (const name of destructured!.split(',').map((s) => s.trim()).filter(Boolean)) {
      expect(typeof (grantHelpers as Record<string, unknown>)[name], `helper ${name}`).toBe('function');
    }
  });

  it('the rotated refresh token is recorded as the RotatedRefreshToken entity, with remainingTTL', async () => {
    expect(await source('actions/grants/refresh_token.js')).toContain("ctx.oidc.entity('RotatedRefreshToken', refreshToken)");
    const provider = bareProvider();
    const descriptor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(provider.RefreshToken.prototype), 'remainingTTL')
      ?? findGetter(provider.RefreshToken.prototype, 'remainingTTL');
    expect(descriptor?.get, 'RefreshToken#remainingTTL').toBeTypeOf('function');
  });

  it('access tokens are created with the code or refresh token as an entity carrying authTime', async () => {
    expect(await source('actions/grants/refresh_token.js')).toMatch(/authTime: refreshToken\.authTime/);
    expect(await source('actions/grants/authorization_code.js')).toContain("ctx.oidc.entity('AuthorizationCode', code)");
  });

  it('the parsed token request body is kept on ctx.oidc.body (empty values included)', async () => {
    expect(await source('shared/selective_body.js')).toContain('ctx.oidc.body = querystring.parse(body.toString())');
  });

  it("the logout confirmation form's id", async () => {
    expect(await source('actions/end_session.js')).toContain(`<form id="${LOGOUT_FORM_ID}"`);
  });

  it('Provider.ctx is the request context getter (undefined outside a request)', () => {
    expect(Object.getOwnPropertyDescriptor(Provider, 'ctx')?.get).toBeTypeOf('function');
    expect(currentContext()).toBeUndefined();
  });

  it('the refresh token value generator and an extra stored field take effect', async () => {
    const provider = bareProvider();
    expect(provider.RefreshToken.IN_PAYLOAD).toEqual(expect.arrayContaining(['accountId', 'grantId', 'sid']));
    setRefreshTokenValueGenerator(provider, (token) => `made-for-${token.accountId}`);
    addRefreshTokenField(provider, 'organizationId', () => ({ value: 42 }));
    expect(provider.RefreshToken.IN_PAYLOAD).toContain('organizationId');
    const client = await provider.Client.find('c');
    const token = new provider.RefreshToken({ accountId: 'someone', client, grantId: 'g', expiresWithSession: false });
    expect(await token.save()).toBe('made-for-someone');
  });

  it('the client checks of redirect URIs and sid are prototype methods of Client', async () => {
    const provider = bareProvider();
    for (const method of ['redirectUriAllowed', 'postLogoutRedirectUriAllowed', 'includeSid']) {
      expect(provider.Client.prototype[method], `Client#${method}`).toBeTypeOf('function');
    }
    setRedirectUriChecks(provider, { redirectUriAllowed: (uri) => uri === 'x', postLogoutRedirectUriAllowed: () => false });
    alwaysIncludeSid(provider);
    const client = await provider.Client.find('c');
    expect(client.redirectUriAllowed('x')).toBe(true);
    expect(client.redirectUriAllowed('http://127.0.0.1:1/')).toBe(false);
    expect(client.includeSid()).toBe(true);
  });
});

function findGetter(object: object, name: string): PropertyDescriptor | undefined {
  for (let proto = object; proto; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor) return descriptor;
  }
  return undefined;
}
