import { useEffect, type KeyboardEvent } from 'react';
import { Link, useRouteError } from 'react-router';
import { css } from 'styled-system/css';
import { Button, buttonStyles } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { settings } from '../../config/settings';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../services/browser-storage';
import type { ErrorAction } from '../../services/errors';
import { reportError } from '../../services/error-reporting';
import { CHUNK_RELOAD_MESSAGE, classifyRouteError, serializeError, shouldReloadAfterChunkError } from './route-error';

export const BUG_TITLE = '🐛 Ups! You found a bug';
export const BUG_BODY =
  'This issue has been sent to our cloud and our team has been alerted. Please reload the page, and if the problem persists, contact support.';

/** errorElement of the routes: never a blank page, whatever failed. */
export function RouteErrorView() {
  const error = useRouteError();
  return <ErrorPresentation error={error} />;
}

export function ErrorPresentation({ error }: { error: unknown }) {
  const presentation = classifyRouteError(error);
  if (presentation.kind === 'chunk') return <ChunkReload />;
  if (presentation.kind === 'known') return <ErrorMessageView message={presentation.message} description={presentation.description} action={presentation.action} />;
  return <BugDialog error={presentation.error} />;
}

export function ErrorMessageView({ message, description, action }: { message: string; description?: string; action?: ErrorAction }) {
  return (
    <div role="alert" className={css({ display: 'grid', placeItems: 'center', minH: '60dvh', p: '6' })}>
      <div className={css({ maxW: 'lg', textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' })}>
        <div aria-hidden="true" className={css({ w: '12', h: '12', borderRadius: 'full', bg: 'amber.a3', color: 'amber.11', display: 'grid', placeItems: 'center', fontWeight: 'bold', fontSize: 'xl' })}>
          !
        </div>
        <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>{message}</h1>
        {description && <p className={css({ color: 'fg.muted' })}>{description}</p>}
        {action ? (
          <Link to={action.to} className={buttonStyles({ variant: 'solid', size: 'md' })}>
            {action.label}
          </Link>
        ) : (
          <Button onClick={() => window.location.reload()}>Reload page</Button>
        )}
      </div>
    </div>
  );
}

function ChunkReload() {
  useEffect(() => {
    const last = Number(readStorage('session', STORAGE_KEYS.chunkReload) ?? '') || null;
    const now = Date.now();
    if (shouldReloadAfterChunkError(last, now)) {
      writeStorage('session', STORAGE_KEYS.chunkReload, String(now));
      const timer = setTimeout(() => window.location.reload(), 1500);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, []);
  return (
    <div role="status" className={css({ display: 'grid', placeItems: 'center', minH: '60dvh', p: '6' })}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center', textAlign: 'center' })}>
        <Spinner size="lg" label="" />
        <p>{CHUNK_RELOAD_MESSAGE}</p>
      </div>
    </div>
  );
}

/** Tab and Shift+Tab cycle through the dialog's own controls: nothing behind a modal may take focus. */
function keepFocusInside(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'Tab') return;
  const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'));
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

function BugDialog({ error }: { error: unknown }) {
  useEffect(() => {
    reportError(error, { source: 'route' });
  }, [error]);
  const serialized = serializeError(error);
  const mail = `mailto:${settings.supportEmail}?subject=${encodeURIComponent('Console error')}&body=${encodeURIComponent(serialized)}`;
  const showDetails = settings.environment !== 'production' && error instanceof Error;
  // A plain modal layer rather than the kit's Dialog: this view must not pull the dialog machinery into the
  // first route, and it must not close (behind it there is nothing to show).
  return (
    <div className={css({ position: 'fixed', inset: '0', zIndex: 'modal', bg: 'black.a8', display: 'grid', placeItems: 'center', p: '4' })}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="bug-title"
        aria-describedby="bug-body"
        onKeyDown={keepFocusInside}
        className={css({ w: 'min(34rem, 100%)', bg: 'bg.default', borderRadius: 'l3', shadow: 'lg', p: '6', display: 'flex', flexDirection: 'column', gap: '4', maxH: '90dvh', overflowY: 'auto' })}
      >
        <h1 id="bug-title" className={css({ textStyle: 'lg', fontWeight: 'semibold' })}>
          {BUG_TITLE}
        </h1>
        <p id="bug-body" className={css({ color: 'fg.muted', textStyle: 'sm' })}>
          {BUG_BODY}
        </p>
        {showDetails && (
          <p className={css({ fontWeight: 'medium' })}>
            {error.name}: {error.message}
          </p>
        )}
        <pre className={css({ fontFamily: 'mono', fontSize: 'xs', bg: 'gray.a2', borderWidth: '1px', borderRadius: 'l2', p: '3', maxH: '48', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-word' })}>{serialized}</pre>
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3', flexWrap: 'wrap' })}>
          <a href={mail} className={buttonStyles({ variant: 'outline', size: 'md' })}>
            Contact support
          </a>
          <Button autoFocus onClick={() => window.location.assign('/')}>
            Reload page
          </Button>
        </div>
      </div>
    </div>
  );
}
