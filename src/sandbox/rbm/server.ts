// A stand-in for Google's RCS Business Messaging API on loopback, for tests and the embedded
// demo: the OAuth token endpoint (JWT bearer grant, RS256 checked against the service
// account's public key), capabilities.get, agentMessages.create (idempotent by messageId: a
// reused id sends nothing twice), the webhook setup handshake, and DELIVERED/READ user events
// posted as {message:{data: base64(JSON)}} signed with X-Goog-Signature. Numbers listed as
// non-RCS answer 404 (the engine falls back to SMS).
import { perSecondLimit } from '../per-second-limit.ts';
import { createPublicKey, createVerify, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRbmData } from '../../engine/channels/rcs/webhook.ts';
import { WebhookPoster, type WebhookDelivery } from '../graph/webhook-poster.ts';

export interface SandboxRbmAgent {
  id: string;
  /** The webhook's client token: the key of X-Goog-Signature. */
  clientToken: string;
  webhookUrl?: string;
  /** The service account allowed to act for this agent. */
  serviceAccount: { clientEmail: string; publicKey: string | KeyObject };
}

export interface RbmSandboxOptions {
  agents?: SandboxRbmAgent[];
  /** E.164 numbers that are not RCS-capable: capabilities and sends answer 404. */
  nonRcsNumbers?: string[];
  /** Sends per second per agent before 429 RESOURCE_EXHAUSTED; default 300. */
  ratePerSecond?: number;
  /** Wait before each user event webhook; default 0. */
  eventDelayMs?: number;
  /** Post READ after DELIVERED; default true. */
  readReceipts?: boolean;
  now?: () => number;
}

export interface RbmSentMessage { agentId: string; phone: string; messageId: string; body: unknown }
export interface RbmRequestRecord { kind: 'token' | 'capabilities' | 'agentMessages'; agentId?: string; phone?: string; messageId?: string; status: number }

export interface RbmSandbox {
  /** API root: the RCS adapter's baseUrl. */
  url: string;
  /** The token endpoint for serviceAccountTokenProvider({ tokenUrl }). */
  tokenUrl: string;
  /** Messages actually sent (a reused messageId adds nothing). */
  sent: RbmSentMessage[];
  requests: RbmRequestRecord[];
  deliveries: WebhookDelivery[];
  /** Google's setup POST {clientToken, secret}; verified when the app echoes the secret. */
  setupWebhook(agentId: string): Promise<{ status: number; body: string; verified: boolean }>;
  /** A user writes to the agent: posts the user-message event. */
  injectUserMessage(input: { agentId: string; from: string; text: string }): Promise<WebhookDelivery>;
  replay(delivery: WebhookDelivery): Promise<WebhookDelivery>;
  /** Posts a READ event for `messageId` signed with the wrong client token. */
  sendForged(agentId: string, messageId?: string): Promise<WebhookDelivery>;
  setAgent(agent: SandboxRbmAgent): void;
  idle(): Promise<void>;
  waitForDelivery(match: (delivery: WebhookDelivery) => boolean, timeoutMs?: number): Promise<WebhookDelivery>;
  stop(): Promise<void>;
}

const FEATURES = ['RICHCARD_STANDALONE', 'RICHCARD_CAROUSEL', 'ACTION_CREATE_CALENDAR_EVENT', 'ACTION_DIAL', 'ACTION_OPEN_URL', 'ACTION_SHARE_LOCATION', 'ACTION_VIEW_LOCATION', 'REVOCATION'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startRbmSandbox(options: RbmSandboxOptions = {}): Promise<RbmSandbox> {
  const now = options.now ?? Date.now;
  const agents = new Map((options.agents ?? []).map((a) => [a.id, a]));
  const nonRcs = new Set(options.nonRcsNumbers ?? []);
  const ratePerSecond = options.ratePerSecond ?? 300;
  const eventDelayMs = options.eventDelayMs ?? 0;
  const readReceipts = options.readReceipts ?? true;
  const poster = new WebhookPoster();
  const sent: RbmSentMessage[] = [];
  const requests: RbmRequestRecord[] = [];
  /** access token → client e-mail and expiry. */
  const tokens = new Map<string, { clientEmail: string; expiresAt: number }>();
  /** messageId → the answer given when it was first created. */
  const created = new Map<string, unknown>();
  const throttled = perSecondLimit(ratePerSecond, now);
  let tokenUrl = '';

  const delay = () => (eventDelayMs > 0 ? new Promise((resolve) => setTimeout(resolve, eventDelayMs)) : Promise.resolve());

  function postEvent(agent: SandboxRbmAgent, content: Record<string, unknown>, signingKey = agent.clientToken, note?: WebhookDelivery['note']) {
    const decoded = Buffer.from(JSON.stringify({ ...content, agentId: agent.id }), 'utf8');
    const envelope = { message: { data: decoded.toString('base64'), messageId: String(Date.now()) + randomBytes(3).toString('hex'), publishTime: new Date(now()).toISOString() }, subscription: `projects/rbm-${agent.id}/subscriptions/rbm-agent-subscription` };
    return poster.post(agent.id, agent.webhookUrl ?? null, JSON.stringify(envelope), { 'x-goog-signature': signRbmData(signingKey, decoded) }, note);
  }

  function scheduleEvents(agent: SandboxRbmAgent, phone: string, messageId: string) {
    const events = readReceipts ? ['DELIVERED', 'READ'] : ['DELIVERED'];
    poster.track((async () => {
      for (const eventType of events) {
        await delay();
        await postEvent(agent, { senderPhoneNumber: phone, eventType, eventId: randomUUID(), messageId, sendTime: new Date(now()).toISOString() });
      }
    })());
  }

  /** The JWT bearer grant: verify the assertion, hand out an opaque token. */
  function token(form: URLSearchParams): { status: number; answer: unknown } {
    const invalid = (description: string) => ({ status: 400, answer: { error: 'invalid_grant', error_description: description } });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, answer: { error: 'unsupported_grant_type' } };
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return invalid('malformed assertion');
    let header: { alg?: string }, claims: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
    try {
      header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    } catch {
      return invalid('malformed assertion');
    }
    if (header.alg !== 'RS256') return invalid('alg must be RS256');
    const account = [...agents.values()].find((a) => a.serviceAccount.clientEmail === claims.iss)?.serviceAccount;
    if (!account) return invalid('Invalid issuer');
    const key = typeof account.publicKey === 'string' ? createPublicKey(account.publicKey) : account.publicKey;
    if (!createVerify('RSA-SHA256').update(`${parts[0]}.${parts[1]}`).verify(key, Buffer.from(parts[2], 'base64url'))) return invalid('Invalid JWT Signature.');
    const nowS = now() / 1000;
    if (claims.aud !== tokenUrl) return invalid('Invalid audience');
    if (typeof claims.exp !== 'number' || claims.exp < nowS || typeof claims.iat !== 'number' || claims.iat > nowS + 60 || claims.exp - claims.iat > 3600) return invalid('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    if (!claims.scope?.split(' ').includes('https://www.googleapis.com/auth/rcsbusinessmessaging')) return invalid('Invalid scope');
    const accessToken = `ya29.sandbox.${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, { clientEmail: account.clientEmail, expiresAt: now() + 3600_000 });
    return { status: 200, answer: { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' } };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, answer: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    const raw = await readBody(request);

    if (request.method === 'POST' && url.pathname === '/token') {
      const result = token(new URLSearchParams(raw));
      requests.push({ kind: 'token', status: result.status });
      return send(result.status, result.answer);
    }
    const match = /^\/v1\/phones\/([^/]+)\/(capabilities|agentMessages)$/.exec(url.pathname);
    if (!match) return send(404, googleError(404, 'NOT_FOUND', 'Unknown path'));
    const phone = decodeURIComponent(match[1]);
    const kind = match[2] as 'capabilities' | 'agentMessages';
    const agentId = url.searchParams.get('agentId') ?? '';
    const messageId = url.searchParams.get('messageId') ?? undefined;
    const answer = (status: number, body: unknown) => {
      requests.push({ kind, agentId, phone, messageId, status });
      return send(status, body);
    };
    const agent = agents.get(agentId);
    const auth = request.headers.authorization?.startsWith('Bearer ') ? tokens.get(request.headers.authorization.slice(7)) : undefined;
    if (!auth || auth.expiresAt <= now()) return answer(401, googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'));
    if (!agent || agent.serviceAccount.clientEmail !== auth.clientEmail) return answer(403, googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission'));
    if (!/^\+\d{6,15}$/.test(phone)) return answer(400, googleError(400, 'INVALID_ARGUMENT', 'Invalid phone number'));

    if (kind === 'capabilities') {
      if (request.method !== 'GET') return answer(404, googleError(404, 'NOT_FOUND', 'Unknown method'));
      if (!UUID.test(url.searchParams.get('requestId') ?? '')) return answer(400, googleError(400, 'INVALID_ARGUMENT', 'requestId must be a UUID'));
      if (nonRcs.has(phone)) return answer(404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
      return answer(200, { features: FEATURES });
    }
    if (request.method !== 'POST') return answer(404, googleError(404, 'NOT_FOUND', 'Unknown method'));
    if (!messageId || !UUID.test(messageId)) return answer(400, googleError(400, 'INVALID_ARGUMENT', 'messageId must be a UUID'));
    let body: { contentMessage?: { text?: unknown; richCard?: unknown } };
    try {
      body = JSON.parse(raw);
    } catch {
      return answer(400, googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload'));
    }
    const previous = created.get(messageId);
    // Google ignores a create with an id it has seen: same answer, nothing sent again.
    if (previous) return answer(200, previous);
    if (throttled(agent.id)) return answer(429, googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded'));
    if (typeof body?.contentMessage?.text !== 'string' && body?.contentMessage?.richCard === undefined) return answer(400, googleError(400, 'INVALID_ARGUMENT', 'contentMessage must carry text or a rich card'));
    if (nonRcs.has(phone)) return answer(404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
    const result = { name: `phones/${phone}/agentMessages/${messageId}`, sendTime: new Date(now()).toISOString(), contentMessage: body.contentMessage };
    created.set(messageId, result);
    sent.push({ agentId: agent.id, phone, messageId, body });
    scheduleEvents(agent, phone, messageId);
    return answer(200, result);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  tokenUrl = `${url}/token`;

  const agentOf = (id: string) => {
    const agent = agents.get(id);
    if (!agent) throw new Error(`the RBM sandbox has no agent ${id}`);
    return agent;
  };

  return {
    url,
    tokenUrl,
    sent,
    requests,
    deliveries: poster.deliveries,
    async setupWebhook(agentId) {
      const agent = agentOf(agentId);
      if (!agent.webhookUrl) throw new Error(`agent ${agentId} has no webhook URL`);
      const secret = randomBytes(8).toString('hex');
      const response = await fetch(agent.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientToken: agent.clientToken, secret }), signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      return { status: response.status, body, verified: response.status === 200 && body === secret };
    },
    injectUserMessage({ agentId, from, text }) {
      return postEvent(agentOf(agentId), { senderPhoneNumber: from, messageId: randomUUID(), sendTime: new Date(now()).toISOString(), text });
    },
    replay: (delivery) => poster.post(delivery.target, delivery.url, delivery.body, delivery.headers, 'replay'),
    sendForged(agentId, messageId = randomUUID()) {
      const agent = agentOf(agentId);
      return postEvent(agent, { senderPhoneNumber: '+573001112233', eventType: 'READ', eventId: randomUUID(), messageId, sendTime: new Date(now()).toISOString() }, `${agent.clientToken}-not`, 'forged');
    },
    setAgent: (agent) => void agents.set(agent.id, agent),
    idle: () => poster.idle(),
    waitForDelivery: (match, timeoutMs) => poster.waitFor(match, timeoutMs),
    async stop() {
      await poster.idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
