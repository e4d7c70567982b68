import { afterEach, describe, expect, it, vi } from 'vitest';
import { enableProduct, ENABLE_TIMEOUT_MS } from '../../src/services/stack';
import { http, REQUEST_TIMEOUT_MS } from '../../src/services/http';
import { MessageResponse } from '../../contract/common';

// An enable creates the product's storage on the server and may take longer than an ordinary call: the console must
// wait for it (a console that gave up at 30 s left the enable to commit with its one-time secret never shown).

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A fetch that answers `body` once `delayMs` of (fake) time has passed, or fails when the request is aborted. */
function slowFetch(delayMs: number, body: unknown) {
  return vi.fn((input: Request | string | URL, init?: RequestInit) => {
    const signal = input instanceof Request ? input.signal : init?.signal;
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })), delayMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      });
    });
  });
}

describe('time limits of calls', () => {
  it('an enable answered after more than 30 s is still waited for', async () => {
    vi.useFakeTimers();
    const enabled = { message: 'qryn has been enabled', product: 'qryn', enabled: true, step: 'show-info', errors: {}, integration_id: 1, items: [], has_json_download: false };
    vi.stubGlobal('fetch', slowFetch(REQUEST_TIMEOUT_MS + 60_000, enabled));
    const result = enableProduct('qryn', 7, {}).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 60_000 + 10);
    const settled = await result;
    expect(settled.ok, String(!settled.ok && settled.error)).toBe(true);
    expect(ENABLE_TIMEOUT_MS).toBeGreaterThan(REQUEST_TIMEOUT_MS + 60_000);
  });

  it('an ordinary call still gives up after 30 s', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', slowFetch(REQUEST_TIMEOUT_MS + 60_000, { message: 'late' }));
    const result = http.post('projects/', MessageResponse, { json: {} }).then(
      () => 'answered',
      () => 'gave up',
    );
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 10);
    expect(await result).toBe('gave up');
  });
});
