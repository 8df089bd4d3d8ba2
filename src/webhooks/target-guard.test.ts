import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postWebhook } from './post-webhook.ts';
import { checkWebhookTarget, checkWebhookUrl, guardedLookup, isPrivateAddress } from './target-guard.ts';

describe('the webhook target guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2001:db8::1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses address literals in any spelling the URL parser accepts, unless private targets are allowed', () => {
    for (const url of [
      'http://127.0.0.1/hook',
      'http://2130706433/hook',
      'http://0x7f.1/hook',
      'http://[::1]:8080/hook',
      'http://[::ffff:7f00:1]/hook',
    ])
      expect(() => checkWebhookUrl(url, false), url).toThrow(/loopback or private-range address/);
    expect(checkWebhookUrl('http://127.0.0.1/hook', true).href).toBe('http://127.0.0.1/hook');
  });

  it('refuses what is not an http(s) URL, and credentials in it', () => {
    expect(() => checkWebhookUrl('hooks.example/x', false)).toThrow("--url: 'hooks.example/x' is not a URL");
    expect(() => checkWebhookUrl('file:///etc/passwd', false)).toThrow('must be an http:// or https:// URL');
    expect(() => checkWebhookUrl('https://user:pw@hooks.example/', false)).toThrow(
      'must not carry credentials',
    );
  });

  it('resolves names when an endpoint is added: localhost is refused', async () => {
    await expect(checkWebhookTarget('http://localhost:9/x', false)).rejects.toThrow(
      /webhook target localhost is (127\.0\.0\.1|::1), a loopback or private-range address/,
    );
    await expect(checkWebhookTarget('http://no-such-host.invalid/x', false)).rejects.toThrow(
      'does not resolve',
    );
  });

  it('refuses at connection time the address a name resolves to then (DNS rebinding)', async () => {
    const server = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    try {
      // A name, so Node asks the lookup: the guard refuses where the name leads now.
      const url = new URL(`http://localhost:${port}/hook`);
      const blocked = await postWebhook({ url, body: '{}', headers: {}, lookup: guardedLookup(false) });
      expect(blocked).toMatchObject({ status: null });
      expect(blocked.error).toMatch(/loopback or private-range address/);
      const allowed = await postWebhook({
        url: new URL(`http://127.0.0.1:${port}/hook`),
        body: '{}',
        headers: {},
      });
      expect(allowed).toMatchObject({ status: 204, error: null });
    } finally {
      server.close();
    }
  });
});
