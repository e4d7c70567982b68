// Keyboard-only use, checked the way a person without a mouse meets the page: Tab moves to every control in turn
// and out again (no trap), the focused control shows where focus is (an outline or a box shadow, read from its
// computed style, or from the box drawn for a visually hidden input such as a checkbox), and no visible, enabled
// control is left out of the Tab order.
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export interface Focused {
  /** Stable per element for the page's lifetime. */
  id: number;
  /** Role-ish description for messages: tag, type, accessible text. */
  label: string;
  indicator: string | null;
}

/** Whether the element `focused` gave this id is still in the document. */
async function stillOnPage(page: Page, id: number): Promise<boolean> {
  return page.evaluate((wanted) => {
    const known = (window as unknown as { __keyboardElements?: Map<number, WeakRef<Element>> }).__keyboardElements;
    return known?.get(wanted)?.deref()?.isConnected ?? false;
  }, id);
}

/** The focused element, its description and its focus indicator (null when none is drawn). */
export async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as (HTMLElement & { __keyboardId?: number }) | null;
    if (!el || el === document.body || el === document.documentElement) return null;
    const w = window as unknown as { __keyboardNext?: number };
    el.__keyboardId ??= w.__keyboardNext = (w.__keyboardNext ?? 0) + 1;
    // Kept to tell later whether the element is still on the page (a toast's button goes when the toast does).
    const known = ((window as unknown as { __keyboardElements?: Map<number, WeakRef<Element>> }).__keyboardElements ??= new Map());
    known.set(el.__keyboardId, new WeakRef(el));
    const drawn = (node: Element | null | undefined): string | null => {
      if (!node) return null;
      const style = getComputedStyle(node);
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return `outline ${style.outlineWidth} ${style.outlineStyle}`;
      if (style.boxShadow && style.boxShadow !== 'none') return `box-shadow ${style.boxShadow}`;
      return null;
    };
    const box = el.getBoundingClientRect();
    // A visually hidden input (Ark's checkbox, radio) is drawn by its label's control part.
    const stand = box.width <= 2 || box.height <= 2 ? el.closest('label')?.querySelector('[data-part="control"]') : null;
    const text = (el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '').trim().slice(0, 60);
    return {
      id: el.__keyboardId,
      label: `${el.tagName.toLowerCase()}${el.getAttribute('type') ? `[${el.getAttribute('type')}]` : ''}${el.getAttribute('role') ? `(${el.getAttribute('role')})` : ''} "${text}"`,
      indicator: drawn(el) ?? drawn(stand),
    };
  });
}

async function expectVisibleFocus(page: Page): Promise<Focused | null> {
  const now = await focused(page);
  if (now) expect(now.indicator, `focus is visible on ${now.label}`).not.toBeNull();
  return now;
}

/** Presses `key` until `matches` holds for the focused control; every control passed shows its focus. */
export async function pressUntil(page: Page, matches: (f: Focused) => boolean | Promise<boolean>, key = 'Tab', max = 60): Promise<Focused> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(key);
    const now = await expectVisibleFocus(page);
    if (now && (await matches(now))) return now;
  }
  throw new Error(`${key} ${max} times never reached the control`);
}

/** Tab to the control whose description contains `text`. */
export const tabTo = (page: Page, text: string | RegExp) =>
  pressUntil(page, (f) => (typeof text === 'string' ? f.label.includes(text) : text.test(f.label)));

const isFocused = (control: Locator) => control.evaluate((el) => el === document.activeElement);

/** Tab to `control` itself: for a control described by its value, such as a select's trigger showing its choice, or one at the end of a long form. */
export const tabToControl = (page: Page, control: Locator, max = 200) => pressUntil(page, () => isFocused(control), 'Tab', max);

/** Tab to the field whose description contains `label`, then type into it. */
export async function typeInto(page: Page, label: string | RegExp, text: string): Promise<void> {
  await tabTo(page, label);
  await page.keyboard.type(text);
}

/** The focused control's description contains `text`: where focus is after a step (e.g. back on a dialog's trigger). */
export async function expectFocusOn(page: Page, text: string): Promise<void> {
  await expect.poll(async () => (await focused(page))?.label ?? 'nothing (the page itself)', { message: `focus is on ${text}` }).toContain(text);
}

/** Presses `key` in an open list until `option` is highlighted (Enter then takes it). */
export async function arrowToOption(page: Page, option: Locator, key = 'ArrowDown', max = 30): Promise<void> {
  for (let i = 0; i < max && (await option.getAttribute('data-highlighted')) === null; i += 1) await page.keyboard.press(key);
  await expect(option).toHaveAttribute('data-highlighted', '');
}

/** Presses `key` on the focused native select until it shows `value`, the way a person steps through its options. */
export async function arrowTo(page: Page, select: Locator, value: string, key = 'ArrowDown', max = 30): Promise<void> {
  for (let i = 0; i < max && (await select.inputValue()) !== value; i += 1) await page.keyboard.press(key);
  await expect(select).toHaveValue(value);
}

/**
 * Tabs through the whole page once from where focus is, out of the page and back in, until focus comes back to
 * where the cycle started: fails on a control that keeps focus (a trap) or shows none, and on a visible, enabled control that
 * the cycle never reached. Radio buttons count once per group (arrows move inside a group). Given `within` (an open
 * dialog), every control the cycle passes must be inside it: focus is trapped there.
 */
export async function expectTabCycle(page: Page, within?: Locator, max = 200): Promise<void> {
  const seen = new Set<number>();
  // What the cycle passed, for the message when it does not close.
  const trail: string[] = [];
  let firstLabel = '';
  let first: number | undefined;
  let previous: number | undefined;
  let outside = 0;
  // A dialog traps focus once it has taken it (its opening moves focus inside a frame or more later, longer on a busy
  // machine): the cycle starts from there, so a Tab pressed before the trap is in place is not counted against it.
  if (within) await expect.poll(() => within.evaluate((el) => el.contains(document.activeElement)), { message: 'the open dialog takes focus' }).toBe(true);
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const now = await expectVisibleFocus(page);
    if (!now) {
      if (within) throw new Error('Tab left the dialog for the page itself');
      // Past the last control focus leaves the page, and the next Tab comes back to the first one.
      outside += 1;
      if (outside > 3) throw new Error('Tab left the page and never came back');
      previous = undefined;
      continue;
    }
    outside = 0;
    if (within) expect(await within.evaluate((el) => el.contains(document.activeElement)), `Tab stays inside the dialog (${now.label} is outside)`).toBe(true);
    expect(now.id, `Tab moves on from ${now.label} (a keyboard trap otherwise)`).not.toBe(previous);
    previous = now.id;
    if (now.id === first) break;
    // The cycle closes on the control it started from; one that has left the page since (a toast's Dismiss button
    // when the toast times out) can never be reached again, so the cycle starts over from here.
    if (first !== undefined && !(await stillOnPage(page, first))) first = undefined;
    if (first === undefined) firstLabel = now.label;
    first ??= now.id;
    seen.add(now.id);
    trail.push(`${now.id} ${now.label}`);
    if (i === max - 1) throw new Error(`Tab ${max} times never came back to where the cycle started (${first} ${firstLabel}); the last steps: ${trail.slice(-12).join(' → ')}`);
  }
  const missed = await page.evaluate((reached) => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"]), [role="combobox"]';
    const radioGroups = new Set<string>();
    for (const el of document.querySelectorAll<HTMLInputElement & { __keyboardId?: number }>('input[type="radio"]')) {
      if (el.__keyboardId && reached.includes(el.__keyboardId)) radioGroups.add(el.name);
    }
    return [...document.querySelectorAll<HTMLElement & { __keyboardId?: number }>(selector)]
      .filter((el) => {
        if ((el as HTMLButtonElement).disabled || el.closest('[inert], [aria-hidden="true"]')) return false;
        // Taken out of the Tab order on purpose, e.g. a combobox's open button: its input opens the list by keys.
        if (el.getAttribute('tabindex') === '-1') return false;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') return false;
        // Visually hidden inputs stand behind a drawn control; the rest must have a size to be seen.
        const hiddenInput = el.tagName === 'INPUT' && (box.width <= 2 || box.height <= 2);
        if (!hiddenInput && (box.width === 0 || box.height === 0)) return false;
        if (el instanceof HTMLInputElement && el.type === 'radio' && radioGroups.has(el.name)) return false;
        return !(el.__keyboardId && reached.includes(el.__keyboardId));
      })
      .map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '').trim().slice(0, 40)}"`);
  }, [...seen]);
  expect(missed, 'controls Tab never reached').toEqual([]);
}
