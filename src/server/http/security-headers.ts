// Security headers on every answer, with @fastify/helmet: no MIME sniffing, no framing
// of the console (clickjacking), no full URLs to other sites, and a Content-Security-Policy the
// console passes (checked in the browser suite, tests/e2e/security-headers.test.ts):
//   - scripts only from our own origin: no inline script, so an injected <script> or on* attribute
//     does not run, and no eval: the console's forms validate by interpreting their schemas
//     (src/console/runtime/form/schema-validator.ts, not Ajv's compiled code) and charts use Vega's
//     expression interpreter (VegaView `ast: true`).
//   - styles from our origin and inline: MUI's emotion and vega-embed insert <style> elements.
//   - images from our origin, data: (the favicon, small icons) and blob: (downloads, previews).
//   - calls only to our own API; no plugins; no <base> elsewhere; forms post here only.
// No upgrade-insecure-requests: the demo and a first installation answer over plain HTTP.
// With the real ePayco configured (EPAYCO_* keys) its checkout script, frames and calls
// are allowed too (checkout-v2.js opens ePayco's checkout); the sandbox's checkout is a page of its
// own that the browser navigates to, which a CSP does not restrict.
//
// The headers are helmet's (the library decides their names and values), computed ONCE at start:
// every directive here is a constant. @fastify/helmet built a new helmet middleware on every
// request, parsing the policy each time: 14 % of the CPU of a cached short-link redirect
// (profiled under `npm run bench redirect`).
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  scriptSrcAttr: ["'none'"],
  upgradeInsecureRequests: null,
};

const EPAYCO_HOSTS = ['https://checkout.epayco.co', 'https://*.epayco.co', 'https://*.epayco.io'];

/** The policy, widened for ePayco's checkout when its keys are set. */
export function contentSecurityPolicy(env: NodeJS.ProcessEnv = process.env): typeof CONTENT_SECURITY_POLICY & { frameSrc?: string[] } {
  if (!env.EPAYCO_PUBLIC_KEY) return CONTENT_SECURITY_POLICY;
  return {
    ...CONTENT_SECURITY_POLICY,
    scriptSrc: [...CONTENT_SECURITY_POLICY.scriptSrc, ...EPAYCO_HOSTS],
    connectSrc: [...CONTENT_SECURITY_POLICY.connectSrc, ...EPAYCO_HOSTS],
    frameSrc: ["'self'", ...EPAYCO_HOSTS],
  };
}

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy() },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  // Cross-origin isolation would refuse nothing we load but gains nothing either; left off.
  crossOriginEmbedderPolicy: false,
};

/** The headers helmet sets for OPTIONS, read once by running its middleware on a recording response. */
export function securityHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders();
  // onRequest, as the plugin did: the 404 handler and error answers get them too.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
