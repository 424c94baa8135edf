import { describe, expect, it } from 'vitest';
import { blockedAddressReason, parseAllowHosts } from '../../api/webhooks/address-guard.ts';
import { resolveTarget, sendWebhook } from '../../api/webhooks/sender.ts';

describe('SSRF address guard', () => {
  it.each([
    '127.0.0.1',
    '127.10.0.5',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::169.254.169.254',
  ])('refuses %s', (ip) => {
    expect(blockedAddressReason(ip)).toMatch(/loopback, private, link-local or reserved/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (ip) => {
    expect(blockedAddressReason(ip)).toBeNull();
  });

  it('parses the allow-list setting case-insensitively, brackets off', () => {
    expect([...parseAllowHosts(' LocalHost, [::1] ,,127.0.0.1')]).toEqual(['localhost', '::1', '127.0.0.1']);
  });

  it('refuses IP-literal and resolving hosts at send time unless allow-listed', async () => {
    await expect(resolveTarget('169.254.169.254', new Set())).rejects.toThrow(/refused: 169\.254\.169\.254 resolves to address 169\.254\.169\.254/);
    await expect(resolveTarget('[::1]', new Set())).rejects.toThrow(/refused/);
    await expect(resolveTarget('localhost', new Set())).rejects.toThrow(/refused: localhost/);
    expect((await resolveTarget('localhost', new Set(['localhost']))).address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('never sends to a non-https URL', async () => {
    const r = await sendWebhook({ url: 'http://localhost:1/x', body: Buffer.from('{}'), headers: {}, timeoutMs: 500, allowHosts: new Set(['localhost']) });
    expect(r).toEqual({ status: null, error: 'refused: only https URLs are delivered', responseExcerpt: '' });
  });
});
