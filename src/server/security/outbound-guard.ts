// Where a connection the server makes on a company's behalf may go: a flow's integration step, a
// status callback, the FTP folder it visits. A company types these addresses, so without a guard
// they reach what only the server should: the sandbox outbox on loopback (every company's one-time
// codes), a cloud metadata service, a database admin page on 10.x.
//
// The rule is one policy, checked twice:
//   - when saved (targetRefusal / urlRefusal): a host that is a non-public address as typed — in
//     any spelling the URL parser accepts (2130706433, 0x7f.1, [::1], [::ffff:127.0.0.1],
//     localhost., 0.0.0.0) — is refused with a field error;
//   - when connecting (resolveTarget): the name is resolved, every address must pass, and the
//     connection goes to the address checked (pinnedLookup), so a name that resolves elsewhere on
//     the second query (DNS rebinding) reaches nothing new. No redirect is ever followed.
// Only public addresses pass, except in the sandbox for the host:port pairs allowed explicitly (its
// own stand-ins: the demo's FTP drop box; SANDBOX_PRIVATE_TARGETS for a local receiver) — and never
// this server's own ports on an address of this machine, nor a path under /sandbox, allowed or not.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isPublicAddress, PrivateAddressError } from './public-address.ts';

export interface HostPort { host: string; port: number }

export interface OutboundPolicyOptions {
  /** Sandbox mode: the `targets` below are allowed; outside it they are ignored. */
  sandbox: boolean;
  /** host:port pairs on loopback or a private network the sandbox may reach (its stand-ins). */
  targets?: readonly (string | HostPort)[];
  /** Name resolution (tests answer their own names); default the system's. */
  resolve?: (host: string) => Promise<LookupAddress[]>;
}

/** `host` canonical as a URL would carry it (lowercase, numeric IPv4 forms dotted, no brackets, no trailing dot), or null. */
export function canonicalHost(host: string): string | null {
  let bare = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (!bare) return null;
  try {
    const parsed = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$/g, '');
    bare = parsed.replace(/\.+$/, '');
  } catch {
    return null;
  }
  return bare || null;
}

/** True for a name every resolver answers with this machine (localhost and its subdomains). */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain';

/** The addresses of this machine's own interfaces (a company URL naming one reaches this server). */
function machineAddresses(): Set<string> {
  const set = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) set.add(a.address.toLowerCase().replace(/%.*$/, ''));
  return set;
}

/** A path of the sandbox's own endpoints (the outbox, the inbound door), however it is written. */
export function isSandboxPath(pathname: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  return /^\/+(?:v\d+\/+)?sandbox(?:\/|$)/i.test(path.replace(/\/\.(?=\/|$)/g, ''));
}

const key = (address: string, port: number) => `${address}|${port}`;

/** A pair "host:port" (host an address or localhost; IPv6 in brackets) as a HostPort. */
export function parseTarget(text: string): HostPort {
  const m = /^\s*(\[[^\]]+\]|[^:\s]+):(\d{1,5})\s*$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 1 && port <= 65535)) throw new Error(`a sandbox target is host:port, got "${text}"`);
  return { host: m[1], port };
}

export class OutboundPolicy {
  readonly sandbox: boolean;
  private readonly allowed = new Set<string>();
  private readonly own = new Set<number>();
  private readonly resolveName: (host: string) => Promise<LookupAddress[]>;

  constructor(options: OutboundPolicyOptions) {
    this.sandbox = options.sandbox;
    this.resolveName = options.resolve ?? ((host) => dnsLookupAll(host, { all: true }));
    for (const t of options.targets ?? []) this.allow(typeof t === 'string' ? parseTarget(t) : t);
  }

  /** Lets the sandbox reach one of its stand-ins at host:port (an address, or localhost for both loopbacks). */
  allow(target: HostPort): void {
    const host = canonicalHost(target.host);
    if (!host || (!isIP(host) && !isLocalName(host))) throw new Error(`a sandbox target is an address or localhost, got "${target.host}"`);
    for (const address of isLocalName(host) ? ['127.0.0.1', '::1'] : [host]) this.allowed.add(key(address, target.port));
  }

  /** This server listens on `port`: never reachable on this machine, even through an allowed target. */
  ownPort(port: number): void {
    this.own.add(port);
  }

  /** Why `address` (an IP) at `port` may not be reached, or null. */
  addressRefusal(address: string, port: number): string | null {
    const bare = address.toLowerCase().replace(/^\[|\]$/g, '');
    const ipv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1] ?? bare;
    const mine = !isPublicAddress(ipv4) || machineAddresses().has(ipv4) || machineAddresses().has(bare);
    if (!mine) return null;
    if (this.own.has(port)) return `${address}:${port} is this server itself`;
    if (this.sandbox && (this.allowed.has(key(ipv4, port)) || this.allowed.has(key(bare, port)))) return null;
    return `${address} is not a public address`;
  }

  /** Why host:port may not be saved as a company's target (a private address as typed, a local name), or null; names are resolved when connecting. */
  targetRefusal(host: string, port: number): string | null {
    const bare = canonicalHost(host);
    if (!bare) return 'not a host name';
    if (isLocalName(bare)) return this.addressRefusal('127.0.0.1', port) && this.addressRefusal('::1', port) ? 'this server itself' : null;
    if (isIP(bare)) return this.addressRefusal(bare, port);
    return null;
  }

  /** True when host:port, as typed, is one of the sandbox's allowed stand-ins (not a public address). */
  isStandIn(host: string, port: number): boolean {
    const bare = canonicalHost(host);
    if (!bare || !this.sandbox) return false;
    const local = isLocalName(bare) || (isIP(bare) > 0 && !isPublicAddress(bare));
    return local && this.targetRefusal(bare, port) === null;
  }

  /** Why an http(s) URL may not be saved or called, or null. */
  urlRefusal(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'http or https only';
    if (isSandboxPath(url.pathname)) return "the sandbox's own endpoints are not a company's target";
    return this.targetRefusal(url.hostname, portOf(url));
  }

  /**
   * The address to connect to for host:port: every address the name resolves to must pass (one
   * private answer among public ones refuses it all). Throws PrivateAddressError.
   */
  async resolveTarget(host: string, port: number): Promise<LookupAddress> {
    const bare = canonicalHost(host);
    if (!bare) throw new PrivateAddressError(host, 'no address');
    const addresses: LookupAddress[] = isIP(bare) ? [{ address: bare, family: isIP(bare) }]
      : isLocalName(bare) ? [{ address: '127.0.0.1', family: 4 }]
        : await this.resolveName(bare);
    if (!addresses.length) throw new PrivateAddressError(host, 'no address');
    for (const a of addresses) {
      const refusal = this.addressRefusal(a.address, port);
      if (refusal) throw new PrivateAddressError(host, this.own.has(port) ? `${a.address}:${port} (this server itself)` : a.address);
    }
    return addresses[0];
  }
}

/** The URL's port, its scheme's default when it names none. */
export const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : url.protocol === 'ftp:' ? 21 : 80);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that answers the address already checked, never asking DNS again. */
export function pinnedLookup(target: LookupAddress): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
}
