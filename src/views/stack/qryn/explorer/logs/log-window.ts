// Which log rows a scrolled list draws: rows are one line high (ROW_HEIGHT) unless opened, when their details add a
// measured height. Pure arithmetic over the few opened rows, so a list of 5,000 lines costs the same as one of 50.

export interface WindowInput {
  count: number;
  rowHeight: number;
  /** Extra height of opened rows, by index (their details), in pixels. */
  extra: ReadonlyMap<number, number>;
  scrollTop: number;
  viewport: number;
  /** Rows drawn beyond each edge, so a short scroll shows no gap before the next frame. */
  overscan: number;
}

export interface RowWindow {
  /** First and last drawn row (end exclusive). */
  start: number;
  end: number;
  /** Offset of the first drawn row from the top of the list. */
  top: number;
  /** Height of the whole list. */
  total: number;
}

/** The top offset of row `index`. */
export function rowOffset(index: number, rowHeight: number, extra: ReadonlyMap<number, number>): number {
  let offset = index * rowHeight;
  for (const [at, add] of extra) if (at < index) offset += add;
  return offset;
}

/** The row under offset `y` (clamped to the list). */
export function rowAt(y: number, count: number, rowHeight: number, extra: ReadonlyMap<number, number>): number {
  if (count === 0) return 0;
  let added = 0;
  for (const [at, add] of [...extra].sort((a, b) => a[0] - b[0])) {
    if (at >= count) break;
    const bottom = (at + 1) * rowHeight + added + add;
    if (y < bottom) return Math.max(0, Math.min(at, Math.floor((y - added) / rowHeight)));
    added += add;
  }
  return Math.max(0, Math.min(count - 1, Math.floor((y - added) / rowHeight)));
}

export function rowWindow(input: WindowInput): RowWindow {
  const { count, rowHeight, extra, scrollTop, viewport, overscan } = input;
  let total = count * rowHeight;
  for (const [at, add] of extra) if (at < count) total += add;
  if (count === 0) return { start: 0, end: 0, top: 0, total: 0 };
  const first = rowAt(Math.max(0, scrollTop), count, rowHeight, extra);
  const last = rowAt(Math.max(0, scrollTop + viewport - 1), count, rowHeight, extra);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + 1 + overscan);
  return { start, end, top: rowOffset(start, rowHeight, extra), total };
}
