// Where people reach this server, for the links the product writes outside a page (a certificate's
// verification address in its PDF, the download link in a scheduled report's e-mail): PUBLIC_URL
// when set (https://sms.example.co behind a proxy), else the origin a request came to, else the
// address the server listens on (the embedded default: http://127.0.0.1:8080).
import type { FastifyInstance, FastifyRequest } from 'fastify';

const configured = () => process.env.PUBLIC_URL?.trim().replace(/\/+$/, '') || null;

export function requestOrigin(request: FastifyRequest): string {
  return configured() ?? `${request.protocol}://${request.host}`;
}

/** The origin of the address `app` listens on (any-interface as localhost), http://localhost before it listens. */
export function addressOrigin(app: FastifyInstance | null): string {
  const address = app?.server.address();
  if (address && typeof address === 'object') {
    const host = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }
  return 'http://localhost';
}

export function listeningOrigin(app: FastifyInstance): string {
  return configured() ?? addressOrigin(app);
}
