// Meta's webhook scheme, shared by WhatsApp and Messenger: the GET hub challenge with the verify
// token, POST deliveries signed with X-Hub-Signature-256 over the raw body with the app secret.
import { answerHubChallenge, verifyMetaSignature } from './meta-signature.ts';
import type { ChannelWebhook } from './webhook.ts';
import { parseJsonBody, WebhookPayloadError, type WebhookEvents } from './webhook-events.ts';

export function metaWebhook(path: string, parse: (body: unknown, now: Date) => WebhookEvents): ChannelWebhook {
  return {
    path,
    secretsOf: (token) => ({ appSecret: token, verifyToken: token }),
    get: (request, secrets) => answerHubChallenge(request.query, secrets.verifyToken),
    post(request, secrets, now) {
      if (!secrets.appSecret || !verifyMetaSignature(request.raw, request.headers['x-hub-signature-256'], secrets.appSecret)) return { kind: 'refuse', code: '99953' };
      try {
        return { kind: 'events', events: parse(parseJsonBody(request.raw), now) };
      } catch (error) {
        if (error instanceof WebhookPayloadError) return { kind: 'refuse', code: '99931' };
        throw error;
      }
    },
  };
}
