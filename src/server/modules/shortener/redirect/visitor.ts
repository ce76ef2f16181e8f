// What a click says about who clicked, worked out when the click is written (not while the redirect
// answers): the visitor's digest and the referrer's host. The redirect keeps the raw address, user
// agent and Referer header (interned in the click queue's columns) and the writer calls these.

/**
 * A visitor: the anonymised address and the user agent, digested (53-bit cyrb53, base 36). Not a
 * secret: like any unsalted digest of a /24 and a user agent it could be guessed back to the /24,
 * which is all it holds; it only tells visitors apart for the unique counts.
 */
export function visitorOf(ip: string, userAgent: string): string {
  return visitorDigest(ip, userAgent).toString(36);
}

/** The digest as a number (53 bits), to keep in a Float64Array column. */
export function visitorDigest(ip: string, userAgent: string): number {
  const text = `${anonymisedIp(ip)}\n${userAgent}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** IPv4 /24 or IPv6 /48: a visitor is told apart without storing their address. */
function anonymisedIp(ip: string): string {
  if (ip.includes('.')) return ip.replace(/^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/, '$1.0');
  return ip.split(':').slice(0, 3).join(':');
}

export function referrerHost(referer: string | null | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.replace(/^www\./, '');
    return host ? host.slice(0, 255) : null;
  } catch {
    return null;
  }
}
