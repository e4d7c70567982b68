import { useSyncExternalStore } from 'react';
import { css, cx } from 'styled-system/css';
import { toast as toastRecipe } from 'styled-system/recipes/toast';
import { toastStore as defaultStore, type ToastStore, type ToastType } from '../../services/toast-store';

const accents: Record<ToastType, string> = {
  info: css({ borderLeftColor: 'iris.9' }),
  success: css({ borderLeftColor: 'green.9' }),
  warning: css({ borderLeftColor: 'amber.9' }),
  error: css({ borderLeftColor: 'red.9' }),
};

/** Renders the toast store: a polite live region (errors assertive), newest on top. */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const styles = toastRecipe();
  return (
    <section
      aria-label="Notifications"
      className={css({ position: 'fixed', zIndex: 'toast', bottom: '4', right: '4', left: { base: '4', sm: 'auto' }, display: 'flex', flexDirection: 'column', gap: '2', w: { sm: '96' }, pointerEvents: 'none' })}
    >
      <ol aria-live="polite" className={css({ display: 'flex', flexDirection: 'column', gap: '2', listStyle: 'none' })}>
        {toasts.map((item) => (
          <li
            key={item.id}
            role={item.type === 'error' ? 'alert' : 'status'}
            data-state={item.visible ? 'open' : 'closed'}
            data-type={item.type}
            hidden={!item.visible}
            onMouseEnter={() => store.pause(item.id)}
            onMouseLeave={() => store.resume(item.id)}
            onFocus={() => store.pause(item.id)}
            onBlur={() => store.resume(item.id)}
            className={cx(
              styles.root,
              accents[item.type],
              css({ pointerEvents: 'auto', position: 'relative', borderLeftWidth: '4px', pr: '10', w: 'full', translate: 'none', scale: '1', opacity: '1', height: 'auto', animation: 'fadeIn 0.2s ease-out' }),
            )}
          >
            <p className={styles.title}>{item.title}</p>
            {item.description && <p className={styles.description}>{item.description}</p>}
            <button type="button" onClick={() => store.dismiss(item.id)} aria-label="Dismiss notification" className={cx(styles.closeTrigger, css({ position: 'absolute', top: '2', right: '2', w: '7', h: '7', borderRadius: 'l2', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'gray.a3' } }))}>
              ✕
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
