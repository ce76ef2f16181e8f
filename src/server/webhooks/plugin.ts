// The webhook routes of the channel types that have one (src/engine/channels/registry.ts):
//   GET/POST /v1/webhooks/<path>/:channelId   today whatsapp and messenger (Meta's handshake and
//                                             X-Hub-Signature-256), rcs (RBM's setup and X-Goog-Signature)
// Each definition's webhook checks the signature and parses the payload (src/engine/channels);
// this plugin owns the HTTP side. Bodies are taken as raw bytes by a content-type parser scoped to
// this plugin (register it without fastify-plugin), because the signatures cover the exact bytes
// Meta and Google sent. Nothing reaches the sink before the signature is checked. A sink failure
// is answered 500 so the provider retries; repeats are expected and carry the same dedupeKey.
// WhatsApp template review events (message_template_status_update) go to `templates`, which
// applies each change once (a repeat changes nothing).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReceiptSink } from '../../engine/channel-adapter.ts';
import {
  channelDefinitions, type ChannelDefinition, type ChannelWebhookSecrets, type WebhookRequest, type TemplateStatusEvent, type WebhookEvents,
} from '../../engine/channels/index.ts';
import { ApiError, type ErrorCode } from '../errors/api-error.ts';

export type { ChannelWebhookSecrets };
/** The platform of a channel type with a webhook (whatsapp, fbMessenger, rcs). */
export type WebhookPlatform = string;

export interface WebhookPluginOptions {
  sink: ReceiptSink;
  /** WhatsApp template review events of this channel's business account; without it they are ignored. */
  templates?(channelId: number, event: TemplateStatusEvent): Promise<void>;
  /** null when no enabled channel of that platform has this id (answered 404). */
  channelSecrets(platform: WebhookPlatform, channelId: number): Promise<ChannelWebhookSecrets | null>;
  /** Largest body accepted; default 4 MiB (Meta batches up to 1000 updates per POST). */
  bodyLimit?: number;
  now?: () => Date;
}

interface ChannelParams { channelId: string }
type Req = FastifyRequest<{ Params: ChannelParams; Querystring: Record<string, unknown> }>;

const refuse = (reply: FastifyReply, code: ErrorCode) => {
  const error = new ApiError(code);
  return reply.status(error.status).send(error.toBody());
};

function channelIdOf(params: ChannelParams): number | null {
  return /^[1-9]\d{0,15}$/.test(params.channelId) ? Number(params.channelId) : null;
}

const requestOf = (request: Req): WebhookRequest => ({
  raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
  headers: request.headers,
  query: request.query ?? {},
});

export async function webhookRoutes(app: FastifyInstance, options: WebhookPluginOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit ?? 4 * 1024 * 1024 }, (_request, body, done) => done(null, body));

  async function secretsFor(platform: WebhookPlatform, request: Req, reply: FastifyReply): Promise<ChannelWebhookSecrets | null> {
    const channelId = channelIdOf(request.params);
    const secrets = channelId === null ? null : await options.channelSecrets(platform, channelId);
    if (!secrets) refuse(reply, '99936');
    return secrets;
  }

  async function deliver(platform: WebhookPlatform, channelId: number, events: WebhookEvents, request: Req, reply: FastifyReply) {
    try {
      for (const event of events.statuses) await options.sink.status(channelId, event);
      for (const event of events.inbound) await options.sink.inbound(channelId, event);
      for (const event of events.templates ?? []) await options.templates?.(channelId, event);
    } catch (error) {
      // The sink's own message only: the body and the secrets stay out of the log.
      request.log.error({ platform, channelId, error: (error as Error).message }, 'webhook sink failed; the provider will retry');
      return refuse(reply, '99950');
    }
    return reply.status(200).type('text/plain; charset=utf-8').send('EVENT_RECEIVED');
  }

  function routes({ platform, webhook }: ChannelDefinition & { webhook: NonNullable<ChannelDefinition['webhook']> }) {
    const path = `/v1/webhooks/${webhook.path}/:channelId`;
    if (webhook.get) {
      const get = webhook.get;
      app.get<{ Params: ChannelParams; Querystring: Record<string, unknown> }>(path, async (request, reply) => {
        const secrets = await secretsFor(platform, request, reply);
        if (!secrets) return reply;
        const answer = get(requestOf(request), secrets);
        return reply.status(answer.status).type('text/plain; charset=utf-8').send(answer.body);
      });
    }
    app.post<{ Params: ChannelParams; Querystring: Record<string, unknown> }>(path, async (request, reply) => {
      const secrets = await secretsFor(platform, request, reply);
      if (!secrets) return reply;
      const answer = webhook.post(requestOf(request), secrets, now());
      if (answer.kind === 'refuse') return refuse(reply, answer.code);
      if (answer.kind === 'reply') return reply.status(answer.status).type('text/plain; charset=utf-8').send(answer.body);
      return deliver(platform, Number(request.params.channelId), answer.events, request, reply);
    });
  }

  for (const definition of channelDefinitions()) if (definition.webhook) routes(definition as Parameters<typeof routes>[0]);
}
