import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

// The developer pages (/dev/outbox shows every verification link and invitation code) answer only with the key npm
// start prints: a process on the same machine that merely knows the port (a customer's ClickHouse server running
// url('http://127.0.0.1:<port>/dev/outbox'), any local user) gets a 404.
describe('developer pages need their key', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false });
  });
  afterAll(async () => platform?.stop());

  it('answers 404 without the key or with a wrong one, for every developer page', async () => {
    for (const page of ['/dev/outbox', '/dev/clock', '/dev/storage']) {
      for (const suffix of ['', '?key=', '?key=guess', `?key=${platform.config.devPagesKey}x`]) {
        const response = await fetch(`${platform.url}${page}${suffix}`, { headers: { accept: 'application/json' } });
        expect(response.status, `${page}${suffix}`).toBe(404);
        expect(await response.text()).not.toContain('Mail outbox');
      }
    }
    const posted = await fetch(`${platform.url}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 30 }) });
    expect(posted.status).toBe(404);
    expect(platform.clock.offsetMs()).toBe(0);
  });

  it('opens with the key in the address (then a cookie for the page\'s own forms) or in a header', async () => {
    const key = platform.config.devPagesKey;
    expect(key.length).toBeGreaterThanOrEqual(24);
    const opened = await fetch(`${platform.url}/dev/outbox?key=${encodeURIComponent(key)}`);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Mail outbox');
    const cookie = opened.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^dev_pages_key=.+; Path=\/dev; HttpOnly; SameSite=Strict$/);
    const again = await fetch(`${platform.url}/dev/clock`, { headers: { cookie: cookie.split(';')[0] } });
    expect(again.status).toBe(200);
    const byHeader = await fetch(`${platform.url}/dev/clock`, { headers: { 'x-dev-pages-key': key, accept: 'application/json' } });
    expect(await byHeader.json()).toMatchObject({ offset_ms: 0 });
  });

  it('takes DEV_PAGES_KEY when given, and refuses a short one', async () => {
    const { loadConfig } = await import('../../server/config');
    expect(loadConfig({ DEV_PAGES_KEY: 'a-long-enough-key-1234' }).devPagesKey).toBe('a-long-enough-key-1234');
    expect(() => loadConfig({ DEV_PAGES_KEY: 'short' })).toThrow(/DEV_PAGES_KEY/);
    expect(loadConfig({}).devPagesKey).not.toBe(loadConfig({}).devPagesKey);
  });
});
