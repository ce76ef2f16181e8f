// Security headers on every answer (issue 13), with @fastify/helmet: no MIME sniffing, no framing
// of the console (clickjacking), no full URLs to other sites, and a Content-Security-Policy the
// console passes (checked in the browser suite, tests/e2e/security-headers.test.ts):
//   - scripts only from our own origin: no inline script, so an injected <script> or on* attribute
//     does not run. 'unsafe-eval' stays for now: the console's forms validate with Ajv
//     (@rjsf/validator-ajv8), which compiles each schema with new Function; precompiled validators
//     would let it go. Charts need no eval (Vega's expression interpreter, VegaView `ast: true`).
//   - styles from our origin and inline: MUI's emotion and vega-embed insert <style> elements.
//   - images from our origin, data: (the favicon, small icons) and blob: (downloads, previews).
//   - calls only to our own API; no plugins; no <base> elsewhere; forms post here only.
// No upgrade-insecure-requests: the demo and a first installation answer over plain HTTP.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'unsafe-eval'"],
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

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Cross-origin isolation would refuse nothing we load but gains nothing either; left off.
    crossOriginEmbedderPolicy: false,
  });
}
