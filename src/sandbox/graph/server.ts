// A stand-in for Meta's Graph API (WhatsApp Cloud API and Messenger Send API) on loopback, for
// tests and the embedded demo. It checks the token of each phone-number id / page id, enforces
// the 24-hour customer-service window per (sender, recipient), knows a registry of templates,
// rate-limits per sender, answers in Graph's shapes, and then POSTs signed status webhooks
// (sent → delivered → read, or failed) to the channel's webhook URL, with non-ASCII escaped as
// Meta does. Scenarios by recipient: a number or PSID ending in 0000 cannot be reached
// (WhatsApp: failed status 131026; Messenger: error 551). It also manages a business account's
// WhatsApp templates (templates.ts): created or edited templates are reviewed after
// `templateReviewMs` and the message_template_status_update webhook is posted, signed, to the
// account's number.
import { perSecondLimit } from '../per-second-limit.ts';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signMetaPayload } from '../../engine/channels/shared/meta-signature.ts';
import { metaJson } from './meta-json.ts';
import { defaultTemplateReview, SANDBOX_DEFAULT_TEMPLATES, TemplateRegistry, type SandboxTemplate, type StoredTemplate, type TemplateReview } from './templates.ts';
import { WebhookPoster, type WebhookDelivery } from './webhook-poster.ts';

export interface SandboxPhoneNumber {
  /** Phone-number id (what the adapter puts in the URL). */
  id: string;
  /** Digits, no '+': metadata.display_phone_number of the webhooks. */
  displayPhoneNumber: string;
  accessToken: string;
  appSecret: string;
  verifyToken?: string;
  /** Where status and inbound webhooks go; none: they are only recorded. */
  webhookUrl?: string;
  wabaId?: string;
}

export interface SandboxPage {
  id: string;
  accessToken: string;
  appSecret: string;
  verifyToken?: string;
  webhookUrl?: string;
}

export type { SandboxTemplate, StoredTemplate, TemplateReview } from './templates.ts';

export interface GraphSandboxOptions {
  whatsapp?: SandboxPhoneNumber[];
  messenger?: SandboxPage[];
  /** Approved templates of every account; default hello_world (en_US) and colibri_aviso (es_CO, es). */
  templates?: SandboxTemplate[];
  /** Wait before a submitted template is reviewed and its status webhook posted; default 3000 ms. */
  templateReviewMs?: number;
  /** Meta's verdict on a submitted template; default: a name containing "rechazo" is REJECTED, others APPROVED. */
  templateReview?: (template: StoredTemplate) => TemplateReview;
  /** Sends per second per sender before 130429 / 613; default 80 (Meta's default mps). */
  ratePerSecond?: number;
  /** Wait before each status webhook; default 0. */
  statusDelayMs?: number;
  /** Send a read status after delivered; default true. */
  readReceipts?: boolean;
  /** Messenger delivery receipts list the mids (true, default) or carry only the watermark. */
  messengerMids?: boolean;
  /** Clock for the 24-hour window and timestamps (ms); default Date.now. */
  now?: () => number;
}

export interface GraphRequestRecord {
  platform: 'whatsapp' | 'fbMessenger';
  sender: string;
  body: unknown;
  status: number;
  /** Graph error code when refused. */
  errorCode?: number;
  /** The message id when accepted. */
  messageId?: string;
  /** The JSON answered. */
  answer: unknown;
}

/** A template management request (create, edit, delete), accepted or not. */
export interface GraphTemplateRequestRecord {
  method: 'POST' | 'DELETE';
  /** The business account id (create, delete) or the template id (edit). */
  target: string;
  body: unknown;
  status: number;
  errorCode?: number;
  answer: unknown;
}

export interface GraphSandbox {
  /** Graph root with version, e.g. http://127.0.0.1:40123/v23.0: the adapters' baseUrl. */
  url: string;
  /** Every send request received, accepted or not, in order. */
  requests: GraphRequestRecord[];
  /** Every webhook delivery made, in order. */
  deliveries: WebhookDelivery[];
  /** Every template management request received, in order. */
  templateRequests: GraphTemplateRequestRecord[];
  /** A template the stand-in knows, by Meta's id. */
  template(id: string): StoredTemplate | undefined;
  /** A WhatsApp user writes to a number: opens the window and posts the inbound webhook. */
  injectWhatsAppInbound(input: { phoneNumberId: string; from: string; text: string; name?: string }): Promise<WebhookDelivery>;
  /** A Messenger user writes to a page: opens the window and posts the inbound webhook. */
  injectMessengerInbound(input: { pageId: string; psid: string; text: string }): Promise<WebhookDelivery>;
  /** Posts a recorded delivery again, same bytes and signature (Meta's retries). */
  replay(delivery: WebhookDelivery): Promise<WebhookDelivery>;
  /** Posts `payload` (default: a status webhook) with a signature made with the wrong secret. */
  sendForged(platform: 'whatsapp' | 'fbMessenger', senderId: string, payload?: unknown): Promise<WebhookDelivery>;
  /** The GET subscription handshake against the channel's webhook URL. */
  verifyWebhook(platform: 'whatsapp' | 'fbMessenger', senderId: string): Promise<{ status: number; body: string; verified: boolean }>;
  /** Adds or replaces a number / page (the demo registers its channels once its server listens). */
  setWhatsAppNumber(number: SandboxPhoneNumber): void;
  setPage(page: SandboxPage): void;
  /** Resolves when every scheduled webhook has been posted and answered. */
  idle(): Promise<void>;
  waitForDelivery(match: (delivery: WebhookDelivery) => boolean, timeoutMs?: number): Promise<WebhookDelivery>;
  stop(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const graphError = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message: `(#${code}) ${message}`, type: 'OAuthException', code, ...extra, fbtrace_id: randomBytes(9).toString('base64url') },
});

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function bearer(request: IncomingMessage, url: URL): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7);
  return url.searchParams.get('access_token');
}

export async function startGraphSandbox(options: GraphSandboxOptions = {}): Promise<GraphSandbox> {
  const now = options.now ?? Date.now;
  const numbers = new Map((options.whatsapp ?? []).map((n) => [n.id, n]));
  const pages = new Map((options.messenger ?? []).map((p) => [p.id, p]));
  const templates = new TemplateRegistry(options.templates ?? SANDBOX_DEFAULT_TEMPLATES, graphError);
  const templateReviewMs = options.templateReviewMs ?? 3000;
  const review = options.templateReview ?? defaultTemplateReview;
  const templateRequests: GraphTemplateRequestRecord[] = [];
  const ratePerSecond = options.ratePerSecond ?? 80;
  const statusDelayMs = options.statusDelayMs ?? 0;
  const readReceipts = options.readReceipts ?? true;
  const messengerMids = options.messengerMids ?? true;
  const poster = new WebhookPoster();
  const requests: GraphRequestRecord[] = [];
  /** Last inbound message time per `${sender}:${recipient}`. */
  const lastInbound = new Map<string, number>();
  const throttled = perSecondLimit(ratePerSecond, now);

  const delay = () => (statusDelayMs > 0 ? new Promise((resolve) => setTimeout(resolve, statusDelayMs)) : Promise.resolve());

  const windowOpen = (sender: string, recipient: string) => {
    const at = lastInbound.get(`${sender}:${recipient}`);
    return at !== undefined && now() - at < DAY_MS;
  };

  function postMeta(target: string, url: string | undefined, appSecret: string, payload: unknown, note?: WebhookDelivery['note']) {
    const body = metaJson(payload);
    return poster.post(target, url ?? null, body, { 'x-hub-signature-256': signMetaPayload(appSecret, body) }, note);
  }

  // WhatsApp ---------------------------------------------------------------------------------
  const wabaOf = (number: SandboxPhoneNumber) => number.wabaId ?? `waba${number.id}`;
  const waEnvelope = (number: SandboxPhoneNumber, value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaOf(number), changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.id }, ...value } }] }],
  });

  function waStatus(number: SandboxPhoneNumber, id: string, recipient: string, status: 'sent' | 'delivered' | 'read' | 'failed', error?: { code: number; title: string }) {
    const item: Record<string, unknown> = { id, status, timestamp: String(Math.floor(now() / 1000)), recipient_id: recipient };
    if (error) item.errors = [{ code: error.code, title: error.title, message: error.title, error_data: { details: error.title } }];
    else {
      item.conversation = { id: `conv${recipient}`, origin: { type: 'service' } };
      item.pricing = { billable: true, pricing_model: 'PMP', category: 'service' };
    }
    return waEnvelope(number, { statuses: [item] });
  }

  function scheduleWaStatuses(number: SandboxPhoneNumber, id: string, recipient: string) {
    const post = (payload: unknown) => postMeta(number.id, number.webhookUrl, number.appSecret, payload);
    const steps: (() => unknown)[] = recipient.endsWith('0000')
      ? [() => waStatus(number, id, recipient, 'failed', { code: 131026, title: 'Message undeliverable' })]
      : [() => waStatus(number, id, recipient, 'sent'), () => waStatus(number, id, recipient, 'delivered'), ...(readReceipts ? [() => waStatus(number, id, recipient, 'read')] : [])];
    poster.track((async () => {
      for (const step of steps) {
        await delay();
        await post(step());
      }
    })());
  }

  function whatsappSend(number: SandboxPhoneNumber, body: Record<string, unknown>): { status: number; answer: unknown; errorCode?: number; messageId?: string } {
    const refuse = (status: number, code: number, message: string) => ({ status, answer: graphError(code, message), errorCode: code });
    const to = typeof body.to === 'string' ? body.to.replace(/^\+/, '') : '';
    if (body.messaging_product !== 'whatsapp' || !/^\d{6,15}$/.test(to)) return refuse(400, 100, 'Invalid parameter');
    if (throttled(number.id)) return refuse(429, 130429, 'Rate limit hit');
    if (body.type === 'text') {
      const text = body.text as { body?: unknown } | undefined;
      if (typeof text?.body !== 'string' || text.body.length === 0) return refuse(400, 100, 'Invalid parameter');
      if (!windowOpen(number.id, to)) return refuse(400, 131047, 'Re-engagement message: more than 24 hours have passed since the recipient last replied to the sender number');
    } else if (body.type === 'template') {
      const template = body.template as { name?: unknown; language?: { code?: unknown } } | undefined;
      if (!templates.sendable(wabaOf(number), String(template?.name), String(template?.language?.code))) return refuse(400, 132001, 'Template name does not exist in the translation');
    } else return refuse(400, 131051, 'Unsupported message type');
    const messageId = `wamid.${randomBytes(24).toString('base64url')}`;
    scheduleWaStatuses(number, messageId, to);
    return { status: 200, messageId, answer: { messaging_product: 'whatsapp', contacts: [{ input: String(body.to), wa_id: to }], messages: [{ id: messageId, message_status: 'accepted' }] } };
  }

  // Messenger --------------------------------------------------------------------------------
  const pageEnvelope = (page: SandboxPage, messaging: Record<string, unknown>) => ({
    object: 'page',
    entry: [{ id: page.id, time: now(), messaging: [{ recipient: { id: page.id }, timestamp: now(), ...messaging }] }],
  });

  function scheduleMessengerReceipts(page: SandboxPage, mid: string, psid: string) {
    const post = (payload: unknown) => postMeta(page.id, page.webhookUrl, page.appSecret, payload);
    poster.track((async () => {
      await delay();
      const watermark = now();
      await post(pageEnvelope(page, { sender: { id: psid }, delivery: messengerMids ? { mids: [mid], watermark } : { watermark } }));
      if (!readReceipts) return;
      await delay();
      await post(pageEnvelope(page, { sender: { id: psid }, read: { watermark: now() } }));
    })());
  }

  function messengerSend(page: SandboxPage, body: Record<string, unknown>): { status: number; answer: unknown; errorCode?: number; messageId?: string } {
    const refuse = (code: number, message: string, subcode?: number) => ({ status: 400, answer: graphError(code, message, subcode ? { error_subcode: subcode } : {}), errorCode: code });
    const psid = (body.recipient as { id?: unknown } | undefined)?.id;
    const text = (body.message as { text?: unknown } | undefined)?.text;
    if (typeof psid !== 'string' || typeof text !== 'string' || !['RESPONSE', 'UPDATE', 'MESSAGE_TAG'].includes(String(body.messaging_type))) return refuse(100, 'Invalid parameter');
    if (body.messaging_type === 'MESSAGE_TAG' && typeof body.tag !== 'string') return refuse(100, 'Tag is required for MESSAGE_TAG');
    if (throttled(page.id)) return refuse(613, 'Calls to this api have exceeded the rate limit.');
    if (psid.endsWith('0000')) return refuse(551, "This person isn't available right now.", 1545041);
    if (body.messaging_type !== 'MESSAGE_TAG' && !windowOpen(page.id, psid)) return refuse(10, 'This message is sent outside of allowed window.', 2018278);
    const mid = `m_${randomBytes(24).toString('base64url')}`;
    scheduleMessengerReceipts(page, mid, psid);
    return { status: 200, messageId: mid, answer: { recipient_id: psid, message_id: mid } };
  }

  // WhatsApp templates -----------------------------------------------------------------------
  const numbersOf = (wabaId: string) => [...numbers.values()].filter((n) => wabaOf(n) === wabaId);

  /** After the review delay: Meta's verdict, then the signed status webhook to the account's number. */
  function scheduleReview(template: StoredTemplate) {
    const submission = template.submissions;
    poster.track((async () => {
      await new Promise((resolve) => setTimeout(resolve, templateReviewMs));
      const current = templates.get(template.id);
      // Deleted or submitted again meanwhile: that later submission has its own review.
      if (!current || current.status !== 'PENDING' || current.submissions !== submission) return;
      const verdict = review(current);
      current.status = verdict.event;
      const number = numbersOf(current.wabaId ?? '').find((n) => n.webhookUrl) ?? numbersOf(current.wabaId ?? '')[0];
      if (!number) return;
      const payload = {
        object: 'whatsapp_business_account',
        entry: [{ id: current.wabaId, time: Math.floor(now() / 1000), changes: [{ field: 'message_template_status_update', value: {
          event: verdict.event, message_template_id: Number(current.id), message_template_name: current.name,
          message_template_language: current.language, reason: verdict.reason, message_template_category: current.category,
        } }] }],
      };
      await postMeta(number.id, number.webhookUrl, number.appSecret, payload);
    })());
  }

  function templateRequest(method: string, target: string, url: URL, token: string | null, body: Record<string, unknown>, kind: 'account' | 'template'): { status: number; answer: unknown; errorCode?: number } {
    const denied = { status: 401, answer: graphError(190, 'Invalid OAuth access token - Cannot parse access token'), errorCode: 190 };
    const unknown = { status: 400, answer: graphError(100, `Unsupported post request. Object with ID '${target}' does not exist`), errorCode: 100 };
    if (kind === 'template') {
      const template = templates.get(target);
      if (!template || method !== 'POST') return unknown;
      // A default template belongs to every account: the first to edit it makes it its own.
      const owner = (template.wabaId === null ? [...numbers.values()] : numbersOf(template.wabaId)).find((n) => n.accessToken === token);
      if (!owner) return denied;
      template.wabaId ??= wabaOf(owner);
      const result = templates.edit(template, body);
      if (result.template) scheduleReview(result.template);
      return result;
    }
    const owners = numbersOf(target);
    if (owners.length === 0) return unknown;
    if (!owners.some((n) => n.accessToken === token)) return denied;
    if (method === 'DELETE') return templates.remove(target, url.searchParams.get('name'), url.searchParams.get('hsm_id'));
    const result = templates.create(target, body);
    if (result.template) scheduleReview(result.template);
    return result;
  }

  // HTTP -------------------------------------------------------------------------------------
  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, answer: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    };
    const templatePath = /^\/v\d+\.\d+\/([^/]+)\/message_templates$/.exec(url.pathname) ?? /^\/v\d+\.\d+\/([0-9]+)$/.exec(url.pathname);
    if (templatePath && (request.method === 'POST' || request.method === 'DELETE')) {
      const raw = request.method === 'POST' ? await readBody(request) : '';
      let body: Record<string, unknown> = {};
      try {
        if (raw) body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(400, graphError(100, 'Invalid JSON'));
      }
      const target = decodeURIComponent(templatePath[1]);
      const kind = url.pathname.endsWith('/message_templates') ? 'account' : 'template';
      const result = templateRequest(request.method, target, url, bearer(request, url), body, kind);
      templateRequests.push({ method: request.method, target, body: raw ? body : null, status: result.status, errorCode: result.errorCode, answer: result.answer });
      return send(result.status, result.answer);
    }
    const match = /^\/v\d+\.\d+\/([^/]+)\/messages$/.exec(url.pathname);
    if (request.method !== 'POST' || !match) return send(404, graphError(803, 'Unknown path components'));
    const senderId = decodeURIComponent(match[1]);
    const number = numbers.get(senderId);
    const page = pages.get(senderId);
    const platform = number ? 'whatsapp' : 'fbMessenger';
    const raw = await readBody(request);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return send(400, graphError(100, 'Invalid JSON'));
    }
    const answer = (status: number, json: unknown, errorCode?: number, messageId?: string) => {
      requests.push({ platform, sender: senderId, body, status, errorCode, messageId, answer: json });
      send(status, json);
    };
    if (!number && !page) return answer(400, graphError(100, `Unsupported post request. Object with ID '${senderId}' does not exist`), 100);
    const token = bearer(request, url);
    if (token !== (number?.accessToken ?? page?.accessToken)) return answer(401, graphError(190, 'Invalid OAuth access token - Cannot parse access token'), 190);
    const result = number ? whatsappSend(number, body) : messengerSend(page!, body);
    return answer(result.status, result.answer, result.errorCode, result.messageId);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const senderOf = (platform: 'whatsapp' | 'fbMessenger', id: string) => {
    const found = platform === 'whatsapp' ? numbers.get(id) : pages.get(id);
    if (!found) throw new Error(`the Graph sandbox has no ${platform} sender ${id}`);
    return found;
  };

  return {
    url: `http://127.0.0.1:${port}/v23.0`,
    requests,
    deliveries: poster.deliveries,
    templateRequests,
    template: (id) => templates.get(id),
    injectWhatsAppInbound({ phoneNumberId, from, text, name }) {
      const number = senderOf('whatsapp', phoneNumberId) as SandboxPhoneNumber;
      const wa = from.replace(/^\+/, '');
      lastInbound.set(`${number.id}:${wa}`, now());
      const message = { from: wa, id: `wamid.${randomBytes(24).toString('base64url')}`, timestamp: String(Math.floor(now() / 1000)), type: 'text', text: { body: text } };
      return postMeta(number.id, number.webhookUrl, number.appSecret, waEnvelope(number, { contacts: [{ profile: { name: name ?? 'Cliente' }, wa_id: wa }], messages: [message] }));
    },
    injectMessengerInbound({ pageId, psid, text }) {
      const page = senderOf('fbMessenger', pageId) as SandboxPage;
      lastInbound.set(`${page.id}:${psid}`, now());
      return postMeta(page.id, page.webhookUrl, page.appSecret, pageEnvelope(page, { sender: { id: psid }, message: { mid: `m_${randomBytes(24).toString('base64url')}`, text } }));
    },
    replay(delivery) {
      return poster.post(delivery.target, delivery.url, delivery.body, delivery.headers, 'replay');
    },
    sendForged(platform, senderId, payload) {
      const sender = senderOf(platform, senderId);
      const content = payload ?? (platform === 'whatsapp'
        ? waStatus(sender as SandboxPhoneNumber, `wamid.forged${randomBytes(6).toString('hex')}`, '573001112233', 'read')
        : pageEnvelope(sender as SandboxPage, { sender: { id: '1234567890' }, read: { watermark: now() } }));
      const body = metaJson(content);
      return poster.post(sender.id, sender.webhookUrl ?? null, body, { 'x-hub-signature-256': signMetaPayload(`${sender.appSecret}-not`, body) }, 'forged');
    },
    async verifyWebhook(platform, senderId) {
      const sender = senderOf(platform, senderId);
      if (!sender.webhookUrl) throw new Error(`${platform} sender ${senderId} has no webhook URL`);
      const challenge = randomBytes(8).toString('hex');
      const target = new URL(sender.webhookUrl);
      target.searchParams.set('hub.mode', 'subscribe');
      target.searchParams.set('hub.verify_token', sender.verifyToken ?? '');
      target.searchParams.set('hub.challenge', challenge);
      const response = await fetch(target, { signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      return { status: response.status, body, verified: response.status === 200 && body === challenge };
    },
    idle: () => poster.idle(),
    setWhatsAppNumber: (number) => void numbers.set(number.id, number),
    setPage: (page) => void pages.set(page.id, page),
    waitForDelivery: (match, timeoutMs) => poster.waitFor(match, timeoutMs),
    async stop() {
      await poster.idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
