import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, classifyAddress, createAddressRules, parseHost, refusalOf, resolveAllowed } from '../../server/net/address-rules';
import { guardedRequest, RequestRefused } from '../../server/net/guarded-request';

// The address rules for user-given hosts and URLs (docs/security.md "Addresses the platform connects to").
describe('address rules', () => {
  const rules = createAddressRules([], () => new Set(['203.0.113.77', '2a01:4f8::77']));

  it('takes a name or an address, nothing else', () => {
    expect(parseHost('clickhouse.example.com')).toEqual({ host: 'clickhouse.example.com', family: 0 });
    expect(parseHost(' 8.8.8.8 ')).toEqual({ host: '8.8.8.8', family: 4 });
    expect(parseHost('[2001:4860::8888]')).toEqual({ host: '2001:4860::8888', family: 6 });
    for (const bad of ['127.0.0.1:8080/dev/outbox#', 'a b', 'host/path', 'user@host', '127.1', '0x7f.1', '-a.com', 'a..b', '', 'http://x', 'exa_mple.com']) {
      expect(parseHost(bad), bad).toBeNull();
    }
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['8.8.8.8', 'public'],
    ['2001:4860:4860::8888', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('refuses every address but public ones and the platform\'s own, unless the operator allows the network', () => {
    expect(refusalOf('8.8.8.8', rules)).toBeNull();
    expect(refusalOf('127.0.0.1', rules)).toBe('loopback');
    expect(refusalOf('203.0.113.77', rules)).toBe('reserved');
    expect(refusalOf('2a01:4f8::77', rules)).toBe('own');
    const lan = createAddressRules(['192.168.0.0/16', '127.0.0.1'], () => new Set());
    expect(refusalOf('192.168.7.7', lan)).toBeNull();
    expect(refusalOf('127.0.0.1', lan)).toBeNull();
    expect(refusalOf('127.0.0.2', lan)).toBe('loopback');
    expect(refusalOf('10.0.0.1', lan)).toBe('private');
    expect(() => createAddressRules(['192.168.0.0/33'])).toThrow(/OUTBOUND_ALLOWED_NETWORKS/);
  });

  it('resolves names and checks every address they resolve to', async () => {
    await expect(resolveAllowed('localhost', rules)).rejects.toBeInstanceOf(AddressRefused);
    await expect(resolveAllowed('127.0.0.1', rules)).rejects.toThrow(/loopback/);
    await expect(resolveAllowed('8.8.8.8', rules)).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  describe('requests', () => {
    let server: http.Server;
    let port = 0;
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/redirect-to-loopback') {
          res.writeHead(302, { location: `http://localhost:${port}/secret` });
          return res.end();
        }
        res.end('secret');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('never connects to a refused address, by name, by address or after a redirect', async () => {
      await expect(guardedRequest(`http://127.0.0.1:${port}/secret`, { method: 'GET' }, rules)).rejects.toBeInstanceOf(RequestRefused);
      await expect(guardedRequest(`http://localhost:${port}/secret`, { method: 'GET' }, rules)).rejects.toBeInstanceOf(RequestRefused);
      await expect(guardedRequest(`http://[::ffff:127.0.0.1]:${port}/secret`, { method: 'GET' }, rules)).rejects.toBeInstanceOf(RequestRefused);
      // The platform's own service may be trusted for the first hop; a redirect from there is checked again.
      await expect(guardedRequest(`http://127.0.0.1:${port}/redirect-to-loopback`, { method: 'GET', trusted: true, maxRedirects: 3 }, rules)).rejects.toBeInstanceOf(RequestRefused);
      const allowed = createAddressRules(['127.0.0.1'], () => new Set());
      expect(await guardedRequest(`http://127.0.0.1:${port}/secret`, { method: 'GET' }, allowed)).toMatchObject({ status: 200, body: 'secret' });
    });
  });
});
