import { describe, expect, it } from 'vitest';
import { blockedAddressReason, parseAllowHosts } from '../../api/webhooks/address-guard.ts';
import { openStateStore } from '../../api/core/state.ts';
import { createEndpoint } from '../../api/webhooks/endpoint-service.ts';
import { type HostLookup, resolveTarget, sendWebhook } from '../../api/webhooks/sender.ts';
import { makeCert, startReceiver } from './support.ts';

describe('SSRF address guard', () => {
  // Every form the guard must refuse, with the reason it gives: [address, what it is].
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.10.0.5', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'], // the 6to4 relay anycast
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    // IPv4-mapped ::ffff:0:0/96, dotted and hex
    ['::ffff:127.0.0.1', 'IPv4-mapped, carries 127.0.0.1'],
    ['::ffff:10.0.0.1', 'IPv4-mapped, carries 10.0.0.1'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped, carries 169.254.169.254'],
    // IPv4-compatible ::a.b.c.d (deprecated): refused even with a public IPv4 inside
    ['::127.0.0.1', 'IPv4-compatible, carries 127.0.0.1'],
    ['::8.8.8.8', 'IPv4-compatible form'],
    // IPv4-translated ::ffff:0:a.b.c.d
    ['::ffff:0:7f00:1', 'IPv4-translated, carries 127.0.0.1'],
    // NAT64, the well-known prefix and the local-use prefix
    ['64:ff9b::169.254.169.254', 'NAT64, carries 169.254.169.254'],
    ['64:ff9b::a00:1', 'NAT64, carries 10.0.0.1'],
    ['64:ff9b:1::a00:1', 'local NAT64, carries 10.0.0.1'],
    ['64:ff9b:1::808:808', 'local NAT64 form'],
    // 6to4 2002::/16: the IPv4 sits in bits 16-48
    ['2002:7f00:1::1', '6to4, carries 127.0.0.1'],
    ['2002:808:808::1', '6to4 form'],
    // Teredo 2001::/32: the client IPv4 is stored inverted in the last 32 bits
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, carries 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo form'], // carries 8.8.8.8
  ])('refuses %s (%s)', (ip, why) => {
    const reason = blockedAddressReason(ip);
    expect(reason).not.toBeNull();
    expect(reason).toContain(why);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])('allows public %s', (ip) => {
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

describe('the guard at endpoint registration and across resolved addresses', () => {
  it('refuses at creation an IP literal or a name resolving to an internal address; accepts a name that does not resolve yet', async () => {
    const state = await openStateStore(':memory:');
    try {
      const now = new Date('2025-03-03T12:00:00Z');
      const create = (url: string, lookup?: HostLookup) => createEndpoint(state, 'acct', { url }, now, { allowHosts: new Set(), lookup });
      await expect(create('https://[::ffff:169.254.169.254]/hook')).rejects.toMatchObject({ status: 400 });
      await expect(create('https://[2002:a00:1::1]/hook')).rejects.toMatchObject({ status: 400 });
      await expect(create('https://10.0.0.1/hook')).rejects.toMatchObject({ status: 400 });
      const internal: HostLookup = async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '64:ff9b::a00:1', family: 6 },
      ];
      await expect(create('https://internal.example/hook', internal)).rejects.toThrow(/refused: internal\.example resolves to .*NAT64, carries 10\.0\.0\.1/);
      const unresolved: HostLookup = async () => {
        throw new Error('getaddrinfo ENOTFOUND later.example');
      };
      expect((await create('https://later.example/hook', unresolved)).status).toBe('active');
      expect((await create('https://public.example/hook', async () => [{ address: '93.184.216.34', family: 4 }])).status).toBe('active');
    } finally {
      await state.close();
    }
  });

  it('tries the next resolved address when one refuses the connection', async () => {
    const tls = makeCert();
    const receiver = await startReceiver(tls);
    try {
      // Nothing listens on 127.0.0.2's port; the receiver listens on 127.0.0.1 only.
      const lookup: HostLookup = async () => [
        { address: '127.0.0.2', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
      const r = await sendWebhook({
        url: receiver.url,
        body: Buffer.from('{}'),
        headers: {},
        timeoutMs: 5000,
        allowHosts: new Set(['localhost']),
        ca: tls.cert,
        lookup,
      });
      expect(r).toMatchObject({ status: 200, error: null });
      expect(receiver.received).toHaveLength(1);
      // The first address alone fails to connect: the success above came from the second.
      const alone = await sendWebhook({
        url: receiver.url,
        body: Buffer.from('{}'),
        headers: {},
        timeoutMs: 5000,
        allowHosts: new Set(['localhost']),
        ca: tls.cert,
        lookup: async () => [{ address: '127.0.0.2', family: 4 }],
      });
      expect(alone.status).toBeNull();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
