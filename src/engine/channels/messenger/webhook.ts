// Messenger webhook payloads (object "page") → events. Delivery and read receipts are
// watermark-based: "every message sent before this time has been delivered/read", `mids` may be
// absent. Each receipt gives one watermark event (providerMessageId '', `recipient` = the PSID,
// `watermark`) that the sink applies to every message of this channel to that PSID sent at or
// before the watermark, plus one event per mid when Meta lists them.
import type { InboundEvent, StatusEvent } from '../../channel-adapter.ts';
import { asArray, asObject, asString, dateOf, WebhookPayloadError, type WebhookEvents } from '../shared/webhook-events.ts';

export function parseMessengerWebhook(body: unknown, now: Date = new Date()): WebhookEvents {
  const root = asObject(body);
  if (root.object !== 'page') throw new WebhookPayloadError(`unexpected object ${String(root.object)}`);
  const statuses: StatusEvent[] = [];
  const inbound: InboundEvent[] = [];
  for (const entry of asArray(root.entry)) {
    const pageId = asString(asObject(entry).id) ?? '';
    for (const e of asArray(asObject(entry).messaging)) {
      const event = asObject(e);
      const psid = asString(asObject(event.sender).id);
      const page = asString(asObject(event.recipient).id) ?? pageId;
      const at = dateOf(event.timestamp, 'ms', now);
      if (!psid) continue;
      if (event.message) {
        const message = asObject(event.message);
        if (message.is_echo === true) continue; // our own message, echoed
        const mid = asString(message.mid);
        const text = asString(message.text) ?? asString(asObject(message.quick_reply).payload) ?? '';
        if (mid) inbound.push({ to: page, from: psid, text, providerMessageId: mid, at });
      } else if (event.postback) {
        const postback = asObject(event.postback);
        const text = asString(postback.title) ?? asString(postback.payload) ?? '';
        inbound.push({ to: page, from: psid, text, providerMessageId: asString(postback.mid) ?? `${psid}:postback:${at.getTime()}`, at });
      } else if (event.delivery || event.read) {
        const receipt = asObject(event.delivery ?? event.read);
        const status = event.delivery ? 'DELIVERED' : 'READ';
        const word = event.delivery ? 'delivered' : 'read';
        const watermark = dateOf(receipt.watermark, 'ms', at);
        for (const m of asArray(receipt.mids)) {
          const mid = asString(m);
          if (mid) statuses.push({ providerMessageId: mid, status, at: watermark, dedupeKey: `${mid}:${word}` });
        }
        statuses.push({ providerMessageId: '', status, at: watermark, watermark, recipient: psid, dedupeKey: `${psid}:${word}:${watermark.getTime()}` });
      }
    }
  }
  return { statuses, inbound };
}
