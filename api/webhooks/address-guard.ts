import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach: a receiver URL is user input, and without this a customer could make
 * the server call its own admin ports, the LAN or the cloud metadata service (SSRF).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the 169.254.169.254 metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, includes fd00:ec2::254 (metadata over IPv6)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** IPv4 carried inside IPv6 (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`) is judged as the IPv4 it carries. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Why an address is refused, or null when it is a public address. */
export function blockedAddressReason(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return `not an IP address: ${ip}`;
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return blockedAddressReason(v4);
    return blocked.check(ip, 'ipv6') ? `address ${ip} is loopback, private, link-local or reserved` : null;
  }
  return blocked.check(ip, 'ipv4') ? `address ${ip} is loopback, private, link-local or reserved` : null;
}

/** `WEBHOOK_ALLOW_HOSTS`: comma-separated host names (or IP literals) exempt from the address check. */
export function parseAllowHosts(setting: string): Set<string> {
  return new Set(
    setting
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter(Boolean),
  );
}
