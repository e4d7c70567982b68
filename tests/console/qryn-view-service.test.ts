// The qryn View's browser side (spec 001 §7 Other): the organization_project cookie (auth and url, secure, path /),
// the credential's Authorization header, and the exports built in the browser.
import { describe, expect, it } from 'vitest';
import { authorizationFor, authorizationHeader, clearViewCookie, SESSION_AUTH, readViewCookie, tableCsv, tableJson, viewCredentialFor, writeViewCookie, VIEW_COOKIE } from '../../src/services/qryn-view';

/** A cookie jar that keeps what document.cookie would keep (name=value) and records the attributes written. */
function jar() {
  const values = new Map<string, string>();
  const written: string[] = [];
  return {
    written,
    get cookie() {
      return [...values].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(text: string) {
      written.push(text);
      const [pair, ...attributes] = text.split('; ');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (attributes.includes('Max-Age=0')) values.delete(name);
      else values.set(name, value);
    },
  };
}

describe('the View cookie', () => {
  it('is written with auth and url, secure, path /, and read back for the same instance only', () => {
    const cookies = jar();
    cookies.cookie = 'other=1';
    writeViewCookie({ auth: 'qk_a:qs_b;c=d', url: 'https://console.example/qryn/abc' }, cookies);
    expect(cookies.written.at(-1)).toMatch(new RegExp(`^${VIEW_COOKIE}=[^;]+; Path=/; Secure; SameSite=Strict; Max-Age=\\d+$`));
    expect(readViewCookie(cookies)).toEqual({ auth: 'qk_a:qs_b;c=d', url: 'https://console.example/qryn/abc' });
    expect(viewCredentialFor('https://console.example/qryn/abc', cookies)).toBe('qk_a:qs_b;c=d');
    expect(viewCredentialFor('https://console.example/qryn/other', cookies)).toBeNull();
    clearViewCookie(cookies);
    expect(readViewCookie(cookies)).toBeNull();
  });

  it('a malformed cookie reads as none', () => {
    const cookies = jar();
    cookies.cookie = `${VIEW_COOKIE}=%7Bnot-json`;
    expect(readViewCookie(cookies)).toBeNull();
  });

  it('key:secret goes as basic auth, a token as bearer', () => {
    expect(authorizationHeader('qk_a:qs_b')).toBe(`Basic ${btoa('qk_a:qs_b')}`);
    expect(authorizationHeader('qt_token')).toBe('Bearer qt_token');
  });

  it('a read resolves a credential to its header, and the sign-in to no header while no one is signed in', async () => {
    expect(await authorizationFor('qk_a:qs_b')).toBe(`Basic ${btoa('qk_a:qs_b')}`);
    expect(await authorizationFor('qt_token')).toBe('Bearer qt_token');
    expect(await authorizationFor(SESSION_AUTH)).toBe('');
  });
});

describe('the exports', () => {
  const table = { columns: ['Time', 'Labels', 'Line'], rows: [['2026-11-23T12:00:00.000Z', '{job="a", level="info"}', 'said "hi",\nthen left']] };
  it('CSV quotes commas, quotes and newlines (RFC 4180)', () => {
    expect(tableCsv(table)).toBe('Time,Labels,Line\n2026-11-23T12:00:00.000Z,"{job=""a"", level=""info""}","said ""hi"",\nthen left"\n');
  });
  it('JSON has one object per row keyed by the column names', () => {
    expect(JSON.parse(tableJson(table))).toEqual([{ Time: '2026-11-23T12:00:00.000Z', Labels: '{job="a", level="info"}', Line: 'said "hi",\nthen left' }]);
  });
});
