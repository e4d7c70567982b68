// How a route error is presented (spec 000 section 8): known errors as a message view, a failed chunk load as
// "updated, reloading", anything else as the bug dialog.
import { isRouteErrorResponse } from 'react-router';
import { ApiError, AuthenticationError, ValidationError, type ErrorAction } from '../../services/errors';

export const CHUNK_RELOAD_MESSAGE = 'The application has been updated. We will reload it now.';
/** A second chunk failure within this window does not reload again (the new build may be broken too). */
export const CHUNK_RELOAD_GUARD_MS = 30_000;

/** The spec's guidance, used when the server's error carries no description of its own. */
export const RETRY_DESCRIPTION = 'Please refresh the page and try again. If the problem persists, please contact support.';

export type RouteErrorPresentation =
  | { kind: 'chunk' }
  | { kind: 'known'; message: string; description: string; action?: ErrorAction }
  | { kind: 'bug'; error: unknown };

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading chunk [\w-]+ failed/i.test(message);
}

export function shouldReloadAfterChunkError(lastReloadAt: number | null, now: number): boolean {
  return lastReloadAt === null || now - lastReloadAt > CHUNK_RELOAD_GUARD_MS;
}

export function classifyRouteError(error: unknown): RouteErrorPresentation {
  if (isChunkLoadError(error)) return { kind: 'chunk' };
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return { kind: 'known', message: 'Nothing to see here!', description: 'The page you are looking for does not exist.', action: { label: 'Go to the home page', to: '/' } };
    const data = error.data as { message?: unknown; description?: unknown } | undefined;
    return {
      kind: 'known',
      message: typeof data?.message === 'string' ? data.message : error.statusText || 'Something went wrong',
      description: typeof data?.description === 'string' ? data.description : '',
    };
  }
  if (error instanceof ApiError) return { kind: 'known', message: error.message, description: error.description || RETRY_DESCRIPTION, action: error.action };
  if (error instanceof AuthenticationError) return { kind: 'known', message: error.message, description: error.description };
  if (error instanceof ValidationError) return { kind: 'known', message: error.message, description: '' };
  return { kind: 'bug', error };
}

/** The error as text for the bug dialog and the support mail. */
export function serializeError(error: unknown): string {
  if (error instanceof Error) {
    return JSON.stringify({ name: error.name, message: error.message, stack: error.stack?.split('\n').slice(0, 6).join('\n') }, null, 2);
  }
  try {
    return JSON.stringify(error, null, 2) ?? String(error);
  } catch {
    return String(error);
  }
}
