import { useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { css, cx } from 'styled-system/css';
import { toast as toastRecipe } from 'styled-system/recipes/toast';
import { toastStore as defaultStore, type ToastStore, type ToastType } from '../../services/toast-store';

const accents: Record<ToastType, string> = {
  info: css({ borderLeftColor: 'iris.9' }),
  success: css({ borderLeftColor: 'green.9' }),
  warning: css({ borderLeftColor: 'amber.9' }),
  error: css({ borderLeftColor: 'red.9' }),
};

const CONTROLS = 'main :is(button, a[href], input, select, textarea, [role="progressbar"], progress)';
const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** How many visible controls of the page lie under the region. */
function coveredControls(region: DOMRect): number {
  let count = 0;
  for (const element of document.querySelectorAll(CONTROLS)) {
    const rect = element.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0 && overlaps(region, rect)) count++;
  }
  return count;
}

/**
 * Bottom right by default; when the toasts there would cover a control of the page (Loggen's Stop button and its
 * progress sit at the bottom right of the form that raised the toast), they move to the top, whichever covers fewer.
 */
function useToastPlacement(region: RefObject<HTMLElement | null>, shown: number): 'top' | 'bottom' {
  const [placement, setPlacement] = useState<'top' | 'bottom'>('bottom');
  useLayoutEffect(() => {
    const element = region.current;
    if (!element || shown === 0) return;
    const place = () => {
      const rect = element.getBoundingClientRect();
      if (rect.height === 0) return;
      const gap = 16;
      const atBottom = new DOMRect(rect.left, window.innerHeight - gap - rect.height, rect.width, rect.height);
      const atTop = new DOMRect(rect.left, TOP_OFFSET_PX, rect.width, rect.height);
      const bottom = coveredControls(atBottom);
      setPlacement(bottom > 0 && coveredControls(atTop) < bottom ? 'top' : 'bottom');
    };
    place();
    window.addEventListener('scroll', place, { passive: true, capture: true });
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, { capture: true });
      window.removeEventListener('resize', place);
    };
  }, [region, shown]);
  return placement;
}

// Under the top bar, so a toast at the top does not cover the project switcher or the account menu.
const TOP_OFFSET_PX = 72;

/** Renders the toast store: a polite live region (errors assertive), newest on top. */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const styles = toastRecipe();
  const region = useRef<HTMLElement>(null);
  const placement = useToastPlacement(region, toasts.filter((t) => t.visible).length);
  return (
    <section
      ref={region}
      aria-label="Notifications"
      data-placement={placement}
      className={css({
        position: 'fixed',
        zIndex: 'toast',
        bottom: '4',
        right: '4',
        left: { base: '4', sm: 'auto' },
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
        w: { sm: '96' },
        pointerEvents: 'none',
        '&[data-placement=top]': { bottom: 'auto', top: '72px' },
      })}
    >
      {/* Each toast is a status (an error an alert) of its own: list items may not carry those roles. */}
      <div aria-live="polite" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
        {toasts.map((item) => (
          <div
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
          </div>
        ))}
      </div>
    </section>
  );
}
