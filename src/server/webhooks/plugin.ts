// The webhook routes of the HTTP channels (WhatsApp, Messenger, RCS):
//   GET/POST /v1/webhooks/whatsapp/:channelId   Meta handshake / X-Hub-Signature-256 deliveries
//   GET/POST /v1/webhooks/messenger/:channelId  same scheme, object "page"
//   POST     /v1/webhooks/rcs/:channelId        RBM setup handshake / X-Goog-Signature events
// Bodies are taken as raw bytes by a content-type parser scoped to this plugin (register it
// without fastify-plugin), because the signatures cover the exact bytes Meta and Google sent.
// Nothing reaches the sink before the signature is checked. A sink failure is answered 500 so
// the provider retries; repeats are expected and carry the same dedupeKey. WhatsApp template
// review events (message_template_status_update) go to `templates`, which applies each change
// once (a repeat changes nothing).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReceiptSink } from '../../engine/channel-adapter.ts';
import { parseJsonBody, WebhookPayloadError, type TemplateStatusEvent, type WebhookEvents } from '../../engine/channels/shared/webhook-events.ts';
import { answerHubChallenge, verifyMetaSignature } from '../../engine/channels/shared/meta-signature.ts';
import { parseMessengerWebhook } from '../../engine/channels/messenger/webhook.ts';
import { answerRbmSetup, isRbmSetup, parseRbmEvent, rbmEnvelopeData, verifyRbmSignature } from '../../engine/channels/rcs/webhook.ts';
import { parseWhatsAppWebhook } from '../../engine/channels/whatsapp/webhook.ts';
import { ApiError, type ErrorCode } from '../errors/api-error.ts';

export type WebhookPlatform = 'whatsapp' | 'fbMessenger' | 'rcs';

/** A channel's webhook secrets, opened: Meta's app secret and verify token, RBM's client token. */
export interface ChannelWebhookSecrets {
  appSecret?: string;
  verifyToken?: string;
  clientToken?: string;
}

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

  function metaRoutes(platform: 'whatsapp' | 'fbMessenger', path: string, parse: (body: unknown, now: Date) => WebhookEvents) {
    app.get<{ Params: ChannelParams; Querystring: Record<string, unknown> }>(path, async (request, reply) => {
      const secrets = await secretsFor(platform, request, reply);
      if (!secrets) return reply;
      const answer = answerHubChallenge(request.query, secrets.verifyToken);
      return reply.status(answer.status).type('text/plain; charset=utf-8').send(answer.body);
    });
    app.post<{ Params: ChannelParams; Querystring: Record<string, unknown> }>(path, async (request, reply) => {
      const secrets = await secretsFor(platform, request, reply);
      if (!secrets) return reply;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!secrets.appSecret || !verifyMetaSignature(raw, request.headers['x-hub-signature-256'], secrets.appSecret)) return refuse(reply, '99953');
      let events: WebhookEvents;
      try {
        events = parse(parseJsonBody(raw), now());
      } catch (error) {
        if (error instanceof WebhookPayloadError) return refuse(reply, '99931');
        throw error;
      }
      return deliver(platform, Number(request.params.channelId), events, request, reply);
    });
  }

  metaRoutes('whatsapp', '/v1/webhooks/whatsapp/:channelId', parseWhatsAppWebhook);
  metaRoutes('fbMessenger', '/v1/webhooks/messenger/:channelId', parseMessengerWebhook);

  app.post<{ Params: ChannelParams; Querystring: Record<string, unknown> }>('/v1/webhooks/rcs/:channelId', async (request, reply) => {
    const secrets = await secretsFor('rcs', request, reply);
    if (!secrets) return reply;
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let body: unknown;
    try {
      body = parseJsonBody(raw);
    } catch {
      return refuse(reply, '99931');
    }
    if (isRbmSetup(body)) {
      const answer = answerRbmSetup(body, secrets.clientToken);
      if (answer.status !== 200) return refuse(reply, '99953');
      return reply.status(200).type('text/plain; charset=utf-8').send(answer.body);
    }
    const data = rbmEnvelopeData(body);
    if (data === null) return refuse(reply, '99931');
    if (!secrets.clientToken || !verifyRbmSignature(data, request.headers['x-goog-signature'], secrets.clientToken)) return refuse(reply, '99953');
    let events: WebhookEvents;
    try {
      events = parseRbmEvent(data, now());
    } catch (error) {
      if (error instanceof WebhookPayloadError) return refuse(reply, '99931');
      throw error;
    }
    return deliver('rcs', Number(request.params.channelId), events, request, reply);
  });
}
