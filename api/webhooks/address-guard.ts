import ipaddr from 'ipaddr.js';

/**
 * Addresses a webhook must never reach: a receiver URL is user input, and without this a customer could make
 * the server call its own admin ports, the LAN or the cloud metadata service (SSRF).
 *
 * The rule is an allow-list: only an address ipaddr.js classes as plain `unicast` passes. Every special-purpose
 * range (loopback, private, link-local, CGNAT, multicast, reserved, documentation, benchmarking, discard
 * 100::/64, the 6to4 relay anycast 192.88.99.0/24, …) is refused, so a range we forgot is refused rather than
 * allowed. IPv6 forms that carry an IPv4 address are unpacked and the IPv4 judged too.
 */

type Embedding = { v4: ipaddr.IPv4; form: string /** Refused even when the IPv4 inside is public. */; transitional: boolean };

const v4At = (parts: number[], hi: number) => new ipaddr.IPv4([parts[hi] >> 8, parts[hi] & 255, parts[hi + 1] >> 8, parts[hi + 1] & 255]);

/**
 * The IPv4 address an IPv6 address carries, by form. Only mapped (::ffff:a.b.c.d, what Node reports for an IPv4
 * peer on a dual-stack socket) and the well-known NAT64 prefix (64:ff9b::/96, an IPv6-only network's way to reach
 * IPv4) are real ways to reach a public receiver; the other forms are deprecated or local transition mechanisms
 * and are refused outright (their IPv4 is still named in the refusal).
 */
function embeddedIpv4(ip: ipaddr.IPv6): Embedding | null {
  const p = ip.parts;
  const in_ = (cidr: string) => ip.match(ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number]);
  if (in_('::ffff:0:0/96')) return { v4: v4At(p, 6), form: 'IPv4-mapped', transitional: false };
  if (in_('64:ff9b::/96')) return { v4: v4At(p, 6), form: 'NAT64', transitional: false };
  if (in_('64:ff9b:1::/48')) return { v4: v4At(p, 6), form: 'local NAT64', transitional: true };
  if (in_('::ffff:0:0:0/96')) return { v4: v4At(p, 6), form: 'IPv4-translated', transitional: true };
  // IPv4-compatible ::a.b.c.d (deprecated); :: and ::1 are not IPv4 and are judged as IPv6.
  if (in_('::/96') && (p[6] !== 0 || p[7] > 1)) return { v4: v4At(p, 6), form: 'IPv4-compatible', transitional: true };
  if (in_('2002::/16')) return { v4: v4At(p, 1), form: '6to4', transitional: true };
  if (in_('2001::/32')) {
    // Teredo: the client's IPv4 is stored inverted in the last 32 bits (RFC 4380).
    const client = v4At(
      p.map((x) => x ^ 0xffff),
      6,
    );
    return { v4: client, form: 'Teredo', transitional: true };
  }
  return null;
}

/**
 * `::a.b.c.d` written with a dotted tail: ipaddr.js reads every such tail as IPv4-mapped (`::1.2.3.4` becomes
 * `::ffff:1.2.3.4`), which would judge an IPv4-compatible address as mapped. Rewriting the tail as two hex groups
 * keeps the bits as written.
 */
function dottedTailToHex(ip: string): string {
  const m = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m || !ip.includes(':')) return ip;
  const [a, b, c, d] = m.slice(2).map(Number);
  if ([a, b, c, d].some((x) => x > 255)) return ip;
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function ipv4Reason(ip: ipaddr.IPv4, shown: string): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : `address ${shown} is loopback, private, link-local or reserved (${range})`;
}

/** Why an address is refused, or null when it is a public unicast address. */
export function blockedAddressReason(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return `not an IP address: ${ip}`;
  const addr = ipaddr.parse(dottedTailToHex(ip.replace(/%.*$/, '')));
  if (addr.kind() === 'ipv4') return ipv4Reason(addr as ipaddr.IPv4, ip);
  const v6 = addr as ipaddr.IPv6;
  const inner = embeddedIpv4(v6);
  if (inner) {
    const reason = ipv4Reason(inner.v4, `${ip} (${inner.form}, carries ${inner.v4.toString()})`);
    if (reason) return reason;
    if (inner.transitional) return `address ${ip} uses the ${inner.form} form (carries ${inner.v4.toString()}), a transition form never delivered to`;
    return null;
  }
  const range = v6.range();
  return range === 'unicast' ? null : `address ${ip} is loopback, private, link-local or reserved (${range})`;
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
