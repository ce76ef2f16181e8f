// The payment gateway's confirmation (research/protocols.md 5.2): ePayco calls
//   POST (or GET) /v1/payments/epayco/confirmation   x-www-form-urlencoded x_… fields
// whenever a transaction's state changes. The fields are read as sent (the signature covers the
// strings as they are: "50000" and "50000.00" sign differently) and the signature is checked in
// constant time (core/ports/payment.ts), which turns away forgeries without asking the gateway.
// But the signature covers only the reference, transaction id, amount and currency: the state and
// the invoice are unsigned. So the confirmation only names a transaction; the gateway is asked what
// it is (engine/payments/confirmed.ts) and its answer, which must agree with every claimed field,
// is what the one owner of payment states applies, once. Answers: 200 applied or already applied (a
// replay changes nothing), 400 a forged, malformed or unconfirmed confirmation, 404 an invoice we
// never made, 409 an amount or currency that is not the order's (nothing changes; logged). A
// gateway we cannot reach, or a failure on our side, answers 503 or 500 so the gateway tries again.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { PaymentGatewayError, type PaymentGateway } from '../../core/ports/payment.ts';
import type { Database } from '../../engine/database.ts';
import { confirmByGateway } from '../../engine/payments/index.ts';

export interface PaymentWebhookOptions {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  now: () => Date;
  path: string;
}

const MAX_FIELDS = 200;

function fieldsOf(text: string): Record<string, string> | null {
  const fields: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > MAX_FIELDS) return null;
    fields[name] = value;
  }
  return fields;
}

export async function paymentWebhookRoutes(app: FastifyInstance, options: PaymentWebhookOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  async function confirm(request: FastifyRequest, reply: FastifyReply, text: string) {
    const fields = fieldsOf(text);
    const word = fields ? options.gateway.readConfirmation(fields) : null;
    if (!word) {
      request.log.warn({ ref: fields?.x_ref_payco ?? null }, 'payment confirmation refused: signature missing or wrong');
      return reply.status(400).type('text/plain; charset=utf-8').send('invalid signature');
    }
    try {
      const claim = { gatewayRef: word.gatewayRef, invoice: word.reference, transactionId: word.transactionId, amount: word.amount, currency: word.currency };
      const outcome = await confirmByGateway(options.db, options.gateway, claim, options.now());
      if (outcome.kind === 'unconfirmed') {
        request.log.warn({ ref: word.gatewayRef, reason: outcome.reason }, 'payment confirmation refused: the gateway does not confirm it');
        return reply.status(400).type('text/plain; charset=utf-8').send('not confirmed by the gateway');
      }
      if (outcome.kind === 'unknown') return reply.status(404).type('text/plain; charset=utf-8').send('unknown invoice');
      if (outcome.kind === 'mismatch') {
        request.log.warn({ invoice: word.reference, amount: word.amount, currency: word.currency }, 'payment confirmation refused: amount or currency is not the order\'s');
        return reply.status(409).type('text/plain; charset=utf-8').send('amount mismatch');
      }
      return reply.status(200).type('text/plain; charset=utf-8').send('OK');
    } catch (error) {
      if (error instanceof PaymentGatewayError) {
        request.log.warn({ ref: word.gatewayRef, error: error.message }, 'payment confirmation held: the gateway could not be asked; it will retry');
        return reply.status(503).type('text/plain; charset=utf-8').send('retry');
      }
      request.log.error({ invoice: word.reference, error: (error as Error).message }, 'payment confirmation failed; the gateway will retry');
      return reply.status(500).type('text/plain; charset=utf-8').send('retry');
    }
  }

  app.post(options.path, async (request, reply) => confirm(request, reply, Buffer.isBuffer(request.body) ? request.body.toString('utf8') : ''));
  // ePayco's method_confirmation may be GET: the same fields in the query string.
  app.get(options.path, async (request, reply) => confirm(request, reply, request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : ''));
}
