import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import type { AccessTokenVerifier } from '../identity/verify-access-token';

export interface ApiDependencies {
  db: Database;
  config: PlatformConfig;
  verifyAccessToken: AccessTokenVerifier;
  mailer: Mailer;
}

/** Handles every request whose path starts with config.apiBasePath. (Placeholder until the API routes land.) */
export function createApiHandler(_deps: ApiDependencies) {
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Not found', description: 'The API routes are not installed yet.' }));
  };
}
