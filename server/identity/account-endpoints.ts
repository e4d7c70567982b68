import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import { findUserById } from '../db/repositories/users-repository';
import { consumeVerificationToken } from './email-verification';
import { redirect, sendHtml, sendJson, sendText, sendUnauthorized } from './http-responses';
import { messagePage, type PageContext } from './pages';
import { profileClaims } from './provider-configuration';
import { InvalidTokenError, type AccessTokenVerifier } from './verify-access-token';

// The identity endpoints answered by the platform rather than by the provider: userinfo (the provider's refuses the
// API's resource-bound tokens), Keycloak's account endpoint, and the email verification link.

export interface AccountEndpointDependencies {
  db: Database;
  config: PlatformConfig;
  pageContext: PageContext;
  verifyAccessToken: AccessTokenVerifier;
}

export function createAccountEndpoints(deps: AccountEndpointDependencies) {
  const { db, config, pageContext, verifyAccessToken } = deps;

  async function bearerUser(req: IncomingMessage) {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) return undefined;
    try {
      const claims = await verifyAccessToken(match[1]);
      const user = await findUserById(db, claims.sub);
      return user ? { user, claims } : undefined;
    } catch (error) {
      if (error instanceof InvalidTokenError) return undefined;
      throw error;
    }
  }

  async function userinfo(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'OPTIONS') return sendText(res, 204, '');
    const found = await bearerUser(req);
    if (!found) return sendUnauthorized(res);
    sendJson(res, 200, { sub: found.user.id, ...profileClaims(found.user, found.claims.organization_id) });
  }

  // Keycloak's account endpoint: keycloak-js loadUserProfile() reads it as JSON; a browser visiting it (the
  // console's "manage account" link) is sent to the console's own account settings.
  async function account(req: IncomingMessage, res: ServerResponse) {
    const wantsJson = (req.headers.accept ?? '').includes('application/json') || !!req.headers.authorization;
    if (!wantsJson) return redirect(res, `${config.publicUrl}/account`);
    const found = await bearerUser(req);
    if (!found) return sendUnauthorized(res);
    const { user } = found;
    sendJson(res, 200, {
      id: user.id,
      username: user.email,
      email: user.email,
      firstName: user.given_name,
      lastName: user.family_name,
      emailVerified: user.email_verified,
      attributes: { connection: [user.connection] },
    });
  }

  async function verifyEmail(res: ServerResponse, token: string) {
    const result = await consumeVerificationToken(db, token);
    const back = { href: pageContext.consoleUrl, label: 'Go to the console' };
    if (result.status === 'verified') {
      return sendHtml(res, 200, messagePage(pageContext, {
        title: 'Email verified',
        message: 'Thank you, your email address is verified.',
        link: back,
        tone: 'success',
      }));
    }
    const message = {
      invalid: 'This verification link is not valid. Request a new one from the console.',
      expired: 'This verification link has expired. Request a new one from the console.',
      used: 'This verification link was already used. Your email address is verified.',
    }[result.status];
    sendHtml(res, result.status === 'used' ? 200 : 400, messagePage(pageContext, {
      title: result.status === 'used' ? 'Email verified' : 'Link not valid',
      message,
      link: back,
      tone: result.status === 'used' ? 'success' : 'error',
    }));
  }

  return { userinfo, account, verifyEmail };
}
