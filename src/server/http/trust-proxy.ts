// TRUST_PROXY: which peers may tell who the client is (X-Forwarded-For), the one owner of that
// setting. Unset, nobody may: the client is the socket's peer, which is right when Colibri faces
// the network itself. Behind a reverse proxy every client would then have the proxy's address,
// and the per-IP limits (security/throttle.ts), the sign-in attempts and the audit log would count
// everyone as one; naming the proxy makes `request.ip` the address the proxy saw.
//   TRUST_PROXY=10.0.0.5,10.0.1.0/24   the proxies' addresses or ranges (recommended)
//   TRUST_PROXY=1                      the number of proxy hops in front (a load balancer)
// `true` (trust any peer) is refused: any client could then choose its address and escape every
// per-IP limit. The sandbox's door (auth/sandbox-door.ts) reads the socket's peer, never this.
import { isCidr, parseIp } from '../../core/cidr.ts';

/** Fastify's `trustProxy`: off, a hop count, or the trusted addresses and ranges. */
export type TrustProxy = false | number | string[];

export function trustProxySetting(env: NodeJS.ProcessEnv): TrustProxy {
  const text = (env.TRUST_PROXY ?? '').trim();
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10) throw new Error(`TRUST_PROXY as a hop count must be between 1 and 10, got ${text}`);
    return hops;
  }
  const entries = text.split(',').map((e) => e.trim()).filter(Boolean);
  const wrong = entries.filter((e) => parseIp(e) === null && !isCidr(e));
  if (text === 'true' || wrong.length) {
    throw new Error(`TRUST_PROXY must name the proxies' addresses or ranges (10.0.0.5,10.0.1.0/24) or a hop count; got ${text}`);
  }
  return entries;
}
