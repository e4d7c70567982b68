import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleCsp } from '../../server/static-files';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';

describe('the console files and the platform headers', () => {
  let first: TestPlatform;
  let platform: TestPlatform;
  let base: string;
  beforeAll(async () => {
    // The first start only makes the data folder (and database) that the real run below reuses.
    first = await startTestPlatform({ seed: false, env: { STATIC_DIR: 'will-be-replaced' } });
    await first.stopKeepingData();
    platform = first;
    // A small stand-in for Vite's dist/, in the test's own data folder.
    const dist = path.join(platform.dataDir, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/assets/app-abc123.js"></script>');
    await writeFile(path.join(dist, 'assets', 'app-abc123.js'), `console.log(${JSON.stringify('x'.repeat(2000))});`);
    await writeFile(path.join(dist, 'silent-check-sso.html'), '<!doctype html><script src="/assets/app-abc123.js"></script>');
    platform = await startTestPlatform({ seed: false, dataDir: first.dataDir, databaseUrl: first.databaseUrl, env: { STATIC_DIR: dist } });
    base = platform.url;
  });
  afterAll(async () => {
    await platform?.stopKeepingData();
    await first?.stop();
  });

  it('serves index.html for unknown paths (SPA fallback) with no-cache and the security headers', async () => {
    const response = await fetch(`${base}/some/deep/link?x=1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>console</title>');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBeTruthy();
  });

  it('answers a malformed address with 400, never a server error', async () => {
    for (const bad of ['/%E0%A4%A', '/assets/%ZZ']) {
      const response = await fetch(`${base}${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
  });

  it('adds only the hosted card provider to the policy when it is configured', () => {
    const local = buildConsoleCsp();
    const hosted = buildConsoleCsp({ hostedPayments: true });
    expect(local).not.toContain('stripe');
    expect(hosted).toContain("script-src 'self' https://js.stripe.com");
    expect(hosted).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(hosted).toContain("frame-ancestors 'none'");
  });

  it('caches hashed assets for a year and gzips them', async () => {
    const response = await fetch(`${base}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const missing = await fetch(`${base}/assets/app-old999.js`);
    expect(missing.status).toBe(404);
  });

  it('lets the console frame its own silent check-sso page and the 3p-cookie pages, nothing else', async () => {
    const silent = await fetch(`${base}/silent-check-sso.html`);
    expect(silent.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(silent.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    for (const step of ['step1', 'step2']) {
      const page = await fetch(`${base}/realms/observability/protocol/openid-connect/3p-cookies/${step}.html`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      const html = await page.text();
      expect(html).toContain(`resources/3p-cookies-${step}.js`);
      expect(html).not.toMatch(/<script>/);
      const script = await fetch(`${base}/realms/observability/resources/3p-cookies-${step}.js`);
      expect(script.status).toBe(200);
    }
    const login = await fetch(`${base}/realms/observability/interaction/unknown`);
    expect(login.headers.get('x-frame-options')).toBe('DENY');
    expect(login.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('answers the health check', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('without a built console', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ seed: false, env: { STATIC_DIR: '/nonexistent-dist-folder' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('says the console is not built', async () => {
    const response = await fetch(`${platform.url}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run build');
  });

  it('hides the outbox when developer pages are off', async () => {
    const off = await startTestPlatform({ seed: false, env: { DEV_PAGES: 'false', STATIC_DIR: '/nonexistent-dist-folder' } });
    try {
      const response = await fetch(`${off.url}/dev/outbox`);
      expect(response.status).toBe(503);
      expect(await response.text()).not.toContain('Mail outbox');
    } finally {
      await off.stop();
    }
  });
});
