// Pure webhook verification and parsing: Meta's X-Hub-Signature-256 over the raw bytes (with
// Meta's \u escaping), the GET handshake, RBM's setup and X-Goog-Signature, and the events each
// payload yields (statuses with stable dedupe keys, Messenger watermarks, inbound messages).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseMessengerWebhook } from '../../src/engine/channels/messenger/webhook.ts';
import { answerRbmSetup, parseRbmEvent, signRbmData, verifyRbmSignature } from '../../src/engine/channels/rcs/webhook.ts';
import { answerHubChallenge, signMetaPayload, verifyMetaSignature } from '../../src/engine/channels/shared/meta-signature.ts';
import { WebhookPayloadError } from '../../src/engine/channels/shared/webhook-events.ts';
import { parseWhatsAppWebhook } from '../../src/engine/channels/whatsapp/webhook.ts';
import { metaJson } from '../../src/sandbox/graph/index.ts';

const SECRET = 'app-secret-123';

const waEnvelope = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: '419561257915477', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '573001000001', phone_number_id: '1065' }, ...value } }] }],
});

describe('Meta signature', () => {
  it('accepts the HMAC of the exact bytes and refuses a forged, truncated or missing one', () => {
    const raw = Buffer.from('{"object":"page","entry":[]}');
    const good = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
    expect(signMetaPayload(SECRET, raw)).toBe(good);
    expect(verifyMetaSignature(raw, good, SECRET)).toBe(true);
    expect(verifyMetaSignature(raw, good.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(true);
    expect(verifyMetaSignature(raw, signMetaPayload('other-secret', raw), SECRET)).toBe(false);
    expect(verifyMetaSignature(Buffer.from('{"object":"page","entry":[] }'), good, SECRET)).toBe(false);
    expect(verifyMetaSignature(raw, good.slice(0, -2), SECRET)).toBe(false);
    expect(verifyMetaSignature(raw, good.replace('sha256=', 'sha1='), SECRET)).toBe(false);
    expect(verifyMetaSignature(raw, undefined, SECRET)).toBe(false);
    expect(verifyMetaSignature(raw, good, '')).toBe(false);
  });

  it('"ñ" sent as \\u00f1 verifies over the bytes received, not over re-serialised JSON', () => {
    const payload = waEnvelope({ contacts: [{ profile: { name: 'Begoña' }, wa_id: '573001234567' }], messages: [{ from: '573001234567', id: 'wamid.N1', timestamp: '1750263773', type: 'text', text: { body: 'Mañana llego' } }] });
    const sent = metaJson(payload);
    expect(sent).toContain('Ma\\u00f1ana');
    expect(sent).not.toContain('ñ');
    const signature = signMetaPayload(SECRET, sent);
    expect(verifyMetaSignature(Buffer.from(sent), signature, SECRET)).toBe(true);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(sent)));
    expect(reserialised.toString()).toContain('Mañana');
    expect(verifyMetaSignature(reserialised, signature, SECRET)).toBe(false);
    const events = parseWhatsAppWebhook(JSON.parse(sent));
    expect(events.inbound[0].text).toBe('Mañana llego');
  });

  it('the GET handshake echoes the raw challenge only for subscribe with the right token', () => {
    const query = { 'hub.mode': 'subscribe', 'hub.verify_token': 'vt-1', 'hub.challenge': '1158201444' };
    expect(answerHubChallenge(query, 'vt-1')).toEqual({ status: 200, body: '1158201444' });
    expect(answerHubChallenge(query, 'vt-2').status).toBe(403);
    expect(answerHubChallenge({ ...query, 'hub.mode': 'unsubscribe' }, 'vt-1').status).toBe(403);
    expect(answerHubChallenge({ 'hub.mode': 'subscribe', 'hub.challenge': 'x' }, 'vt-1').status).toBe(403);
    expect(answerHubChallenge(query, undefined).status).toBe(403);
  });
});

describe('WhatsApp payloads', () => {
  it('maps sent/delivered/read/failed with timestamps, the error code and a stable dedupe key', () => {
    const statuses = ['sent', 'delivered', 'read'].map((status, i) => ({ id: 'wamid.A', status, timestamp: String(1750263773 + i), recipient_id: '573001234567' }));
    statuses.push({ id: 'wamid.B', status: 'failed', timestamp: '1750263780', recipient_id: '573009990000', errors: [{ code: 131026, title: 'Message undeliverable' }] } as never);
    const body = waEnvelope({ statuses });
    const first = parseWhatsAppWebhook(body);
    expect(first.statuses.map((s) => [s.providerMessageId, s.status, s.errorCode, s.at.toISOString(), s.dedupeKey])).toEqual([
      ['wamid.A', 'SENT', undefined, '2025-06-18T16:22:53.000Z', 'wamid.A:sent'],
      ['wamid.A', 'DELIVERED', undefined, '2025-06-18T16:22:54.000Z', 'wamid.A:delivered'],
      ['wamid.A', 'READ', undefined, '2025-06-18T16:22:55.000Z', 'wamid.A:read'],
      ['wamid.B', 'FAILED', '131026', '2025-06-18T16:23:00.000Z', 'wamid.B:failed'],
    ]);
    // A replayed delivery yields the same keys: the engine ignores what it has seen.
    expect(parseWhatsAppWebhook(JSON.parse(JSON.stringify(body))).statuses.map((s) => s.dedupeKey)).toEqual(first.statuses.map((s) => s.dedupeKey));
  });

  it('turns text, template quick-reply buttons and interactive replies into inbound events', () => {
    const messages = [
      { from: '573001234567', id: 'wamid.T', timestamp: '1750091045', type: 'text', text: { body: 'Hola' } },
      { from: '573001234567', id: 'wamid.B', timestamp: '1750091046', type: 'button', context: { from: '573001000001', id: 'wamid.X' }, button: { payload: 'STOP', text: 'No más mensajes' } },
      { from: '573001234567', id: 'wamid.I', timestamp: '1750091047', type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Sí' } } },
      { from: '573001234567', id: 'wamid.L', timestamp: '1750091048', type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'r2', title: 'Envío express', description: 'Mañana' } } },
      { from: '573001234567', id: 'wamid.R', timestamp: '1750091049', type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } },
    ];
    const { inbound, statuses } = parseWhatsAppWebhook(waEnvelope({ contacts: [{ profile: { name: 'Ana' }, wa_id: '573001234567' }], messages }));
    expect(statuses).toEqual([]);
    expect(inbound.map((e) => [e.providerMessageId, e.from, e.to, e.text])).toEqual([
      ['wamid.T', '+573001234567', '+573001000001', 'Hola'],
      ['wamid.B', '+573001234567', '+573001000001', 'No más mensajes'],
      ['wamid.I', '+573001234567', '+573001000001', 'Sí'],
      ['wamid.L', '+573001234567', '+573001000001', 'Envío express'],
    ]);
  });

  it('refuses a payload of another product and ignores other fields', () => {
    expect(() => parseWhatsAppWebhook({ object: 'page', entry: [] })).toThrow(WebhookPayloadError);
    // A template update without the template's id names nothing; quality updates are not recorded.
    const template = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'message_template_status_update', value: { event: 'APPROVED' } }, { field: 'message_template_quality_update', value: { new_quality_score: 'RED' } }] }] };
    expect(parseWhatsAppWebhook(template)).toEqual({ statuses: [], inbound: [], templates: [] });
  });

  it("turns message_template_status_update into template events with Meta's reason and the entry's time", () => {
    const update = (value: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: '419561257915477', time: 1750263773, changes: [{ field: 'message_template_status_update', value }] }] });
    const approved = parseWhatsAppWebhook(update({ event: 'APPROVED', message_template_id: 1689556908129832, message_template_name: 'pedido_listo', message_template_language: 'es_CO', reason: 'NONE', message_template_category: 'UTILITY' }));
    expect(approved.templates).toEqual([{ accountId: '419561257915477', event: 'APPROVED', providerTemplateId: '1689556908129832', name: 'pedido_listo', language: 'es_CO', reason: null, category: 'UTILITY', at: new Date(1750263773 * 1000) }]);
    const rejected = parseWhatsAppWebhook(update({ event: 'REJECTED', message_template_id: '77', message_template_name: 'promo', message_template_language: 'es', reason: 'INCORRECT_CATEGORY' }));
    expect(rejected.templates).toEqual([expect.objectContaining({ event: 'REJECTED', providerTemplateId: '77', reason: 'INCORRECT_CATEGORY', category: null })]);
    expect(rejected.statuses).toEqual([]);
  });
});

describe('Messenger payloads', () => {
  const page = (messaging: Record<string, unknown>[]) => ({ object: 'page', entry: [{ id: 'PAGE1', time: 1750000000000, messaging }] });

  it('a delivery without mids is a watermark for the PSID; with mids, each mid too', () => {
    const watermark = 1750000000123;
    const withoutMids = parseMessengerWebhook(page([{ sender: { id: '2468' }, recipient: { id: 'PAGE1' }, timestamp: watermark + 5, delivery: { watermark } }]));
    expect(withoutMids.statuses).toEqual([{ providerMessageId: '', status: 'DELIVERED', at: new Date(watermark), watermark: new Date(watermark), recipient: '2468', dedupeKey: `2468:delivered:${watermark}` }]);
    const withMids = parseMessengerWebhook(page([{ sender: { id: '2468' }, recipient: { id: 'PAGE1' }, timestamp: watermark, delivery: { mids: ['m_1', 'm_2'], watermark } }]));
    expect(withMids.statuses.map((s) => [s.providerMessageId, s.status, s.recipient, s.dedupeKey])).toEqual([
      ['m_1', 'DELIVERED', undefined, 'm_1:delivered'],
      ['m_2', 'DELIVERED', undefined, 'm_2:delivered'],
      ['', 'DELIVERED', '2468', `2468:delivered:${watermark}`],
    ]);
    const read = parseMessengerWebhook(page([{ sender: { id: '2468' }, recipient: { id: 'PAGE1' }, timestamp: watermark, read: { watermark } }]));
    expect(read.statuses.map((s) => [s.status, s.watermark?.getTime(), s.recipient])).toEqual([['READ', watermark, '2468']]);
  });

  it('user messages and postbacks are inbound; echoes of our own messages are not', () => {
    const { inbound } = parseMessengerWebhook(page([
      { sender: { id: '2468' }, recipient: { id: 'PAGE1' }, timestamp: 1750000000000, message: { mid: 'm_in', text: '¿Precio?' } },
      { sender: { id: 'PAGE1' }, recipient: { id: '2468' }, timestamp: 1750000000001, message: { mid: 'm_echo', text: 'Hola', is_echo: true } },
      { sender: { id: '2468' }, recipient: { id: 'PAGE1' }, timestamp: 1750000000002, postback: { mid: 'm_pb', title: 'Comprar', payload: 'BUY' } },
    ]));
    expect(inbound.map((e) => [e.providerMessageId, e.from, e.to, e.text])).toEqual([
      ['m_in', '2468', 'PAGE1', '¿Precio?'],
      ['m_pb', '2468', 'PAGE1', 'Comprar'],
    ]);
  });
});

describe('RBM webhooks', () => {
  const CLIENT_TOKEN = 'SJENCPGJESMGUFPY';
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

  it('the setup handshake answers the secret only for our client token', () => {
    expect(answerRbmSetup({ clientToken: CLIENT_TOKEN, secret: '1234567890' }, CLIENT_TOKEN)).toEqual({ status: 200, body: '1234567890' });
    expect(answerRbmSetup({ clientToken: 'OTHER', secret: '1234567890' }, CLIENT_TOKEN).status).toBe(403);
    expect(answerRbmSetup({ clientToken: CLIENT_TOKEN }, CLIENT_TOKEN).status).toBe(403);
  });

  it('X-Goog-Signature is base64 HMAC-SHA512 of the decoded data', () => {
    const data = encode({ senderPhoneNumber: '+573001234567', eventType: 'READ', eventId: 'e1', messageId: 'm1', sendTime: '2026-03-01T12:00:00Z', agentId: 'agent' });
    const expected = createHmac('sha512', CLIENT_TOKEN).update(Buffer.from(data, 'base64')).digest('base64');
    expect(signRbmData(CLIENT_TOKEN, Buffer.from(data, 'base64'))).toBe(expected);
    expect(verifyRbmSignature(data, expected, CLIENT_TOKEN)).toBe(true);
    // Signing the base64 text instead of the decoded bytes is a different (wrong) signature.
    expect(verifyRbmSignature(data, createHmac('sha512', CLIENT_TOKEN).update(data).digest('base64'), CLIENT_TOKEN)).toBe(false);
    expect(verifyRbmSignature(data, signRbmData('OTHER', Buffer.from(data, 'base64')), CLIENT_TOKEN)).toBe(false);
    expect(verifyRbmSignature(data, undefined, CLIENT_TOKEN)).toBe(false);
  });

  it('DELIVERED/READ become statuses, IS_TYPING nothing, user text an inbound message', () => {
    const base = { senderPhoneNumber: '+573001234567', messageId: 'uuid-1', sendTime: '2026-03-01T12:00:00.000Z', agentId: 'colibri_agent' };
    expect(parseRbmEvent(encode({ ...base, eventType: 'DELIVERED', eventId: 'e1' })).statuses).toEqual([
      { providerMessageId: 'uuid-1', status: 'DELIVERED', at: new Date('2026-03-01T12:00:00.000Z'), dedupeKey: 'uuid-1:DELIVERED' },
    ]);
    expect(parseRbmEvent(encode({ ...base, eventType: 'READ', eventId: 'e2' })).statuses[0].status).toBe('READ');
    expect(parseRbmEvent(encode({ ...base, eventType: 'IS_TYPING', eventId: 'e3' }))).toEqual({ statuses: [], inbound: [] });
    expect(parseRbmEvent(encode({ ...base, messageId: 'in-1', text: 'Quiero más información' })).inbound).toEqual([
      { to: 'colibri_agent', from: '+573001234567', text: 'Quiero más información', providerMessageId: 'in-1', at: new Date('2026-03-01T12:00:00.000Z') },
    ]);
    expect(parseRbmEvent(encode({ ...base, messageId: 'in-2', suggestionResponse: { postbackData: 'YES', text: 'Sí' } })).inbound[0].text).toBe('Sí');
    expect(() => parseRbmEvent('not base64 json!')).toThrow(WebhookPayloadError);
  });
});
