// The platform's clock. Trials, subscription periods, invoices and retention all ask it for "now", so a test (or
// the developer page /dev/clock) can move time forward without waiting for days to pass. Jobs and leases use the
// database's own now(): moving the business clock never makes a worker think another one died.

export interface Clock {
  now(): Date;
  nowMs(): number;
  /** Moves business time forward (never backward). */
  advance(ms: number): void;
  /** How far business time is ahead of the wall clock. */
  offsetMs(): number;
}

export function createClock(initialOffsetMs = 0, wall: () => number = Date.now): Clock {
  let offset = Math.max(0, initialOffsetMs);
  return {
    now: () => new Date(wall() + offset),
    nowMs: () => wall() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward.');
      offset += ms;
    },
    offsetMs: () => offset,
  };
}
