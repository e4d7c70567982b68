import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { PlatformConfig } from '../config';
import type { Queryable } from '../db/database';
import { FormTooLargeError, readForm, sendJson } from './http-responses';
import { endSession } from './session-revocation';

// OAuth 2.0 token revocation (RFC 7009) at /protocol/openid-connect/revoke, answered here rather than by the
// provider: the console's refresh tokens are JWT-shaped (keycloak-js decodes them), and the provider refuses every
// JWT-shaped token at that endpoint with unsupported_token_type. Revoking a refresh token ends its sign-in: the
// browser session, the grant, every token issued under it, and (through ended_sessions) its access tokens at the API.

export function createRevocationEndpoint(deps: { db: Queryable; config: PlatformConfig; provider: Provider }) {
  const { db, config, provider } = deps;

  return async function revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendJson(res, 405, { error: 'invalid_request', error_description: 'Use POST.' });
    }
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      return sendJson(res, 400, { error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded.' });
    }
    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (error) {
      if (error instanceof FormTooLargeError) return sendJson(res, 413, { error: 'invalid_request', error_description: 'The request body is too large.' });
      throw error;
    }
    // A public client authenticates by naming itself (RFC 6749 section 2.3: no secret for public clients).
    if (form.get('client_id') !== config.clientId) {
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'Unknown client.' });
    }
    const token = form.get('token') ?? '';
    if (!token) return sendJson(res, 400, { error: 'invalid_request', error_description: 'missing required parameter token' });
    const hint = form.get('token_type_hint');
    if (hint === 'access_token' || (hint !== 'refresh_token' && looksLikeSignedJwt(token))) {
      // Access tokens are signed JWTs that are not stored: they end with their session or expire (5 minutes).
      return sendJson(res, 400, { error: 'unsupported_token_type', error_description: 'Access tokens cannot be revoked; revoke the refresh token.' });
    }
    const refreshToken = await provider.RefreshToken.find(token, { ignoreExpiration: true });
    // RFC 7009 section 2.2: an unknown, expired or foreign token is answered 200 as well; nothing is revealed.
    if (refreshToken && refreshToken.clientId === config.clientId) {
      await endSession(db, refreshToken.sid, refreshToken.grantId, config.accessTokenTtlSeconds);
      await refreshToken.destroy();
    }
    res.writeHead(200, { 'Cache-Control': 'no-store', 'Content-Length': '0' });
    res.end();
  };
}

/** An RS256 access token (a signed JWT header); the refresh tokens' header says alg "none". */
function looksLikeSignedJwt(token: string): boolean {
  const [header] = token.split('.');
  try {
    const parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    return typeof parsed.alg === 'string' && parsed.alg !== 'none';
  } catch {
    return false;
  }
}
