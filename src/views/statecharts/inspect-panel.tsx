// Development builds only (src/app/root-layout.tsx loads it when import.meta.env.DEV): the statechart studio's
// inspect mode. A small "Inspect" button at the bottom of every page opens a list of the actors running on that
// page (registered by actor-inspection.ts), each with its live state value, status and context.
import { useState, useSyncExternalStore } from 'react';
import { css } from 'styled-system/css';
import { inspectedActors, subscribeToInspection } from '../../machines/actor-inspection';

/** JSON for a context that may hold actor references, errors, functions or cycles. */
export function contextText(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item === 'function') return '[function]';
      if (item instanceof Error) return `[${item.name}: ${item.message}]`;
      if (item && typeof item === 'object') {
        // An actor reference writes itself as { xstate$$type, id } (its toJSON).
        if ('xstate$$type' in item) return `[actor ${(item as { id?: string }).id ?? ''}]`;
        if (seen.has(item)) return '[circular]';
        seen.add(item);
      }
      return item;
    },
    2,
  ) ?? 'undefined';
}

export function InspectPanel() {
  const [open, setOpen] = useState(false);
  const actors = useSyncExternalStore(subscribeToInspection, inspectedActors);
  return (
    <aside aria-label="Actor inspection (development build)" className={css({ position: 'fixed', right: '3', bottom: '3', zIndex: 'toast', maxW: 'min(32rem, calc(100vw - 1.5rem))', textStyle: 'xs' })}>
      {open && (
        <div className={css({ mb: '2', maxH: '70vh', overflowY: 'auto', bg: 'bg.default', borderWidth: '1px', borderRadius: 'l2', shadow: 'lg', p: '3' })}>
          <h2 className={css({ fontWeight: 'semibold', textStyle: 'sm', mb: '2' })}>Actors on this page</h2>
          {actors.length === 0 && <p className={css({ color: 'fg.muted' })}>No actor is running on this page.</p>}
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
            {actors.map((actor) => (
              <li key={actor.key} data-actor={actor.name}>
                <p>
                  <strong>{actor.name}</strong> <span className={css({ color: 'fg.muted' })}>({actor.sessionId}, {actor.status})</span>
                </p>
                <p>
                  State: <code data-testid="state">{typeof actor.value === 'string' ? actor.value : contextText(actor.value)}</code>
                </p>
                <details>
                  <summary>Context</summary>
                  <pre className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontFamily: 'mono' })}>{contextText(actor.context)}</pre>
                </details>
              </li>
            ))}
          </ul>
        </div>
      )}
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className={css({ float: 'right', px: '3', py: '1.5', borderRadius: 'full', bg: 'gray.12', color: 'gray.1', fontWeight: 'medium', cursor: 'pointer', shadow: 'md' })}
      >
        Inspect ({actors.length})
      </button>
    </aside>
  );
}
