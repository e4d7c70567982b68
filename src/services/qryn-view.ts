// The qryn View's side of the instance (spec 001 §7 Other): the `organization_project` cookie that carries the
// credential (`auth`: a token or key:secret) and the instance URL (`url`), set client-side (secure, path /), the
// Authorization header the explorer's reads send with it (src/services/qryn-explorer.ts, qryn-logs.ts,
// qryn-traces.ts), and the results' CSV/JSON export. Those reads go to the instance URL with the instance's
// credential or with the member's sign-in (SESSION_AUTH: the console's access token, which the gateway accepts for
// the project's members); a refusal is the View's to handle, not a logout.
import { getAccessToken } from './auth';

export const VIEW_COOKIE = 'organization_project';

export interface ViewCredential {
  /** A token, or the API key and secret joined by a colon. */
  auth: string;
  /** The instance URL the credential is for. */
  url: string;
}

interface CookieJar {
  cookie: string;
}

/** The View's cookie, if one was set for any instance (JSON of {auth, url}). */
export function readViewCookie(jar: CookieJar = document): ViewCredential | null {
  for (const part of jar.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== VIEW_COOKIE) continue;
    try {
      const value = JSON.parse(decodeURIComponent(rest.join('='))) as Partial<ViewCredential>;
      if (typeof value.auth === 'string' && value.auth && typeof value.url === 'string' && value.url) return { auth: value.auth, url: value.url };
    } catch {
      return null;
    }
  }
  return null;
}

/** The credential the View uses for this instance: the cookie's, when it was set for the same instance URL. */
export function viewCredentialFor(url: string, jar: CookieJar = document): string | null {
  const cookie = readViewCookie(jar);
  return cookie && cookie.url === url ? cookie.auth : null;
}

/** Secure and path / as the spec has it; SameSite=Strict so no other site's request carries it; 30 days. */
export function writeViewCookie(credential: ViewCredential, jar: CookieJar = document): void {
  jar.cookie = `${VIEW_COOKIE}=${encodeURIComponent(JSON.stringify(credential))}; Path=/; Secure; SameSite=Strict; Max-Age=${30 * 86_400}`;
}

export function clearViewCookie(jar: CookieJar = document): void {
  jar.cookie = `${VIEW_COOKIE}=; Path=/; Secure; SameSite=Strict; Max-Age=0`;
}

/** The View's credential meaning "the console's sign-in": never a token (those start qt_) nor key:secret. */
export const SESSION_AUTH = '@session';

/**
 * The Authorization header of a read: the sign-in's current access token (refreshed first when it is about to
 * expire), or the credential's header. Without a token (the sign-in ended) the header is empty and the gateway's 401
 * leads the View back to its form.
 */
export async function authorizationFor(auth: string): Promise<string> {
  if (auth !== SESSION_AUTH) return authorizationHeader(auth);
  const token = await getAccessToken();
  return token ? `Bearer ${token}` : '';
}

/** key:secret goes as HTTP basic, anything else as a bearer token (the gateway accepts both: docs/qryn.md). */
export function authorizationHeader(auth: string): string {
  return auth.includes(':') ? `Basic ${btoa(auth)}` : `Bearer ${auth}`;
}

/** One table of results: what the View shows and what the exports hold. */
export interface ViewTable {
  columns: string[];
  rows: string[][];
}

const csvCell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The table as CSV (RFC 4180 quoting), with a header row. */
export function tableCsv(table: ViewTable): string {
  return [table.columns, ...table.rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

/** The table as JSON: one object per row, keyed by the column names. */
export function tableJson(table: ViewTable): string {
  return JSON.stringify(
    table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]]))),
    null,
    2,
  );
}
