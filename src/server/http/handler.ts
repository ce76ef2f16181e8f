// Handler types derived from the generated operation types, so a handler's params, query, body
// and answer are checked against the YAML, and the map of handlers must name every operation.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { OperationId } from '../../generated/operations.gen.ts';
import type { OperationTypes } from '../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../context.ts';

type ArgsOf<K extends OperationId> = OperationTypes[K]['args'];
type Part<K extends OperationId, P extends string> = P extends keyof ArgsOf<K> ? NonNullable<ArgsOf<K>[P]> : undefined;

/** A binary answer (files): the bytes and their type; the router adds the safety headers. */
/** A file answer: its bytes, or a stream for a file too big to hold (a report file). */
export interface BinaryResult { contentType: string; bytes: Uint8Array | Readable; cacheSeconds?: number }

export type Output<K extends OperationId> = OperationTypes[K]['response'] extends Blob ? BinaryResult : OperationTypes[K]['response'];

export interface HandlerContext<K extends OperationId> {
  params: Part<K, 'params'>;
  query: Part<K, 'query'>;
  body: Part<K, 'body'>;
  /** null only on public operations; the router has already enforced the access level. */
  session: Session | null;
  deps: ServerDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<Output<K>>;

export type HandlerMap = { [K in OperationId]: Handler<K> };
/** One domain's slice of the map, e.g. DomainHandlers<'clientAuth'> holds every clientAuth.* id. */
export type DomainHandlers<Tag extends string> = { [K in OperationId as K extends `${Tag}.${string}` ? K : never]: Handler<K> };

/** The caller of a non-public operation (the router guarantees it is there). */
export function caller(ctx: { session: Session | null }): Session {
  if (!ctx.session) throw new Error('caller() on a public operation');
  return ctx.session;
}
