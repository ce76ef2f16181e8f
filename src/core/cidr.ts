// IP addresses and CIDR ranges (IPv4 and IPv6) for the API credentials' authorised IPs.
// Pure parsing, no DNS and no OS calls, so the console's form and the server judge a value the
// same way. Addresses are compared as byte arrays; an IPv4-mapped IPv6 address (::ffff:a.b.c.d,
// what a dual-stack socket reports for an IPv4 client) is treated as the IPv4 address.

export interface Cidr { version: 4 | 6; bytes: Uint8Array; prefix: number }

const DEC_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => DEC_OCTET.test(p))) return null;
  return Uint8Array.from(parts.map(Number));
}

function parseIpv6(text: string): Uint8Array | null {
  if (text.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(text)) return null;
  let head = text;
  let tail4: Uint8Array | null = null;
  // An embedded IPv4 address may end the text (::ffff:192.0.2.1, 64:ff9b::192.0.2.1).
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    tail4 = parseIpv4(text.slice(lastColon + 1));
    if (!tail4) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (![...left, ...right].every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return null;
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right].map((g) => parseInt(g, 16));
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => { bytes[2 * i] = g >> 8; bytes[2 * i + 1] = g & 0xff; });
  if (tail4) bytes.set(tail4, 12);
  return bytes;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** An address as bytes (4 or 16); IPv4-mapped IPv6 comes back as its IPv4 bytes. */
export function parseIp(text: string): Uint8Array | null {
  const value = text.trim();
  const v4 = parseIpv4(value);
  if (v4) return v4;
  const v6 = parseIpv6(value);
  if (v6 && MAPPED_PREFIX.every((b, i) => v6[i] === b)) return v6.slice(12);
  return v6;
}

/** "10.0.0.0/8", "2001:db8::/32", or a single address (a /32 or /128). Host bits must be zero. */
export function parseCidr(text: string): Cidr | null {
  const value = text.trim();
  const slash = value.indexOf('/');
  const addressText = slash === -1 ? value : value.slice(0, slash);
  const bytes = parseIpv4(addressText) ?? parseIpv6(addressText);
  if (!bytes) return null;
  const max = bytes.length * 8;
  let prefix = max;
  if (slash !== -1) {
    const p = value.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    prefix = Number(p);
    if (prefix > max) return null;
  }
  // 10.0.0.1/8 is almost always a typo for a host or a network: refuse rather than guess.
  const hostBitsSet = bytes.some((b, i) => {
    const networkBits = Math.min(8, Math.max(0, prefix - i * 8));
    return (b & (0xff >> networkBits)) !== 0;
  });
  if (hostBitsSet) return null;
  return { version: bytes.length === 4 ? 4 : 6, bytes, prefix };
}

export const isCidr = (text: string) => text.length <= 64 && parseCidr(text) !== null;

/** The canonical text of a range: lower-case, compressed IPv6, explicit prefix. */
export function formatCidr(cidr: Cidr): string {
  if (cidr.version === 4) return `${[...cidr.bytes].join('.')}/${cidr.prefix}`;
  const groups = Array.from({ length: 8 }, (_, i) => (cidr.bytes[2 * i] << 8) | cidr.bytes[2 * i + 1]);
  // The longest run (at least two) of zero groups becomes "::" (RFC 5952).
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  const text = best.at === -1 ? hex.join(':') : `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
  return `${text}/${cidr.prefix}`;
}

export function cidrContains(cidr: Cidr, address: Uint8Array): boolean {
  if (cidr.bytes.length !== address.length) return false;
  for (let bit = 0; bit < cidr.prefix; bit += 8) {
    const i = bit / 8;
    const mask = cidr.prefix - bit >= 8 ? 0xff : (0xff << (8 - (cidr.prefix - bit))) & 0xff;
    if ((cidr.bytes[i] & mask) !== (address[i] & mask)) return false;
  }
  return true;
}

/** True when the address is inside any of the ranges. An empty list admits nobody. */
export function ipAllowed(ranges: readonly string[], address: string): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  return ranges.some((r) => {
    const cidr = parseCidr(r);
    return cidr !== null && cidrContains(cidr, ip);
  });
}
