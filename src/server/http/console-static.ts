// Serves the console's build (dist/console) on the API's port, with the single-page-app
// fallback: a GET for a route such as /Campaigns/history gets index.html, while API prefixes
// and missing asset files answer 404 (99936) so a broken API call or chunk is never "HTML".
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const API_PREFIXES = ['/v1', '/v3', '/notifications', '/health', '/docs'] as const;

export const isApiPath = (path: string) => API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

// Requests that name a file (/assets/app-1234.js, /favicon.ico) never fall back to index.html.
const looksLikeFile = (path: string) => /\.[A-Za-z0-9]{1,8}$/.test(path) && !path.endsWith('.html');

export async function registerConsole(app: FastifyInstance, root: string): Promise<boolean> {
  if (!existsSync(join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    index: ['index.html'],
    setHeaders(reply, filePath) {
      // Hashed bundles can be cached forever; index.html must be re-read to find new bundles.
      if (filePath.includes(join('/', 'assets', '/'))) reply.header('cache-control', 'public, max-age=31536000, immutable');
      else reply.header('cache-control', 'no-cache');
    },
  });
  return true;
}

/** For the not-found handler: serve index.html when the request is an SPA route. */
export function trySpaFallback(request: FastifyRequest, reply: FastifyReply, consoleServed: boolean): boolean {
  if (!consoleServed || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const path = request.url.split('?')[0];
  if (isApiPath(path) || looksLikeFile(path)) return false;
  reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  return true;
}
