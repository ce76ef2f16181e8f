// A stand-in for ePayco (research protocols.md §5) on loopback, for tests and the embedded demo:
// login with the Basic keys, checkout sessions created with the bearer token, a checkout page
// without JavaScript where a test card decides the outcome (cards.ts), the signed confirmation
// POSTed to the session's confirmation URL BEFORE the browser is sent back to the response URL
// with ?ref_payco= (so a test sees the webhook first; the real ePayco gives no such order), and
// validation by reference. The pending card is approved pendingMs later with a second
// confirmation; reverse() and resend() post a reversal or a replay. Everything lives in memory.
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wallTimeOf } from '../../core/bogota-time.ts';
import { signatureOf, type EpaycoSettings } from '../../engine/payments/epayco-protocol.ts';
import { ABANDONED, APPROVED, EPAYCO_TEST_CARDS, INVALID_CARD, REVERSED, franchiseOf, maskCard, type EpaycoOutcome } from './cards.ts';
import { checkoutPage, notFoundPage } from './pages.ts';

export interface EpaycoSandboxOptions {
  publicKey?: string;
  privateKey?: string;
  customerId?: string;
  pKey?: string;
  /** How long the pending test card stays pending before its approval; default 3000 ms. */
  pendingMs?: number;
  now?: () => Date;
  /** Posts the confirmations; default the global fetch. */
  fetch?: typeof fetch;
}

/** A confirmation posted, with the status our server answered (0 when unreachable). */
export interface EpaycoConfirmationRecord {
  url: string;
  fields: Record<string, string>;
  status: number;
}

export interface EpaycoSandboxTransaction {
  gatewayRef: string;
  sessionId: string;
  invoice: string;
  code: number;
  /** The transaction's current x_ fields, x_signature included. */
  fields: Record<string, string>;
}

export interface EpaycoSandbox {
  /** Base URL, e.g. http://127.0.0.1:40123. */
  url: string;
  /** What the client needs to talk to this stand-in (apiUrl = secureUrl = url). */
  settings: EpaycoSettings;
  /** The checkout page of a session. */
  checkoutUrl(sessionId: string): string;
  /** Every confirmation posted, in order. */
  confirmations: EpaycoConfirmationRecord[];
  /** Posts a state-6 'Reversada' confirmation for an approved transaction. */
  reverse(gatewayRef: string): Promise<void>;
  /** Posts the transaction's last confirmation again (ePayco's retries; replay tests). */
  resend(gatewayRef: string): Promise<void>;
  transactions(): EpaycoSandboxTransaction[];
  stop(): Promise<void>;
}

interface Session {
  id: string;
  invoice: string;
  description: string;
  /** As received, e.g. "59500": x_amount of every confirmation. */
  amount: string;
  taxBase: string;
  tax: string;
  confirmation: string;
  response: string;
  billingName: string;
  billingEmail: string;
  ip: string;
  extra1: string;
  /** The session's transaction once paid or abandoned. */
  gatewayRef: string | null;
}

interface Transaction {
  session: Session;
  fields: Record<string, string>;
  last: Record<string, string> | null;
}

const MAX_BODY_BYTES = 64 * 1024;
const CONFIRMATION_TIMEOUT_MS = 10_000;
const AMOUNT = /^\d+(\.\d{1,2})?$/;

class BodyTooLarge extends Error {}

/** The body as text; BodyTooLarge past 64 KB (the rest is drained, not kept, so the 413 can be sent). */
async function readBody(request: IncomingMessage): Promise<string> {
  if (Number(request.headers['content-length']) > MAX_BODY_BYTES) {
    request.resume();
    throw new BodyTooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
  return Buffer.concat(chunks).toString('utf8');
}

const two = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' on Bogotá's clock, as ePayco writes x_transaction_date. */
function bogotaStamp(at: Date): string {
  const w = wallTimeOf(at, 'America/Bogota');
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** `response` with ref_payco appended (& when it already has a query). */
function returnUrl(response: string, gatewayRef: string): string {
  return `${response}${response.includes('?') ? '&' : '?'}ref_payco=${encodeURIComponent(gatewayRef)}`;
}

const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

export async function startEpaycoSandbox(options: EpaycoSandboxOptions = {}): Promise<EpaycoSandbox> {
  const keys = {
    publicKey: options.publicKey ?? 'sandbox-public',
    privateKey: options.privateKey ?? 'sandbox-private',
    customerId: options.customerId ?? '1000001',
    pKey: options.pKey ?? 'sandbox-p-key',
  };
  const pendingMs = options.pendingMs ?? 3000;
  const now = options.now ?? (() => new Date());
  const post = options.fetch ?? fetch;
  const tokens = new Set<string>();
  const sessions = new Map<string, Session>();
  const transactions = new Map<string, Transaction>();
  const confirmations: EpaycoConfirmationRecord[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  /** Posts the fields once to the session's confirmation URL and records our server's answer. */
  function confirm(transaction: Transaction, fields: Record<string, string>): Promise<void> {
    transaction.last = { ...fields };
    const url = transaction.session.confirmation;
    const work = (async () => {
      let status = 0;
      try {
        const answer = await post(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
          signal: AbortSignal.timeout(CONFIRMATION_TIMEOUT_MS),
        });
        status = answer.status;
        await answer.arrayBuffer().catch(() => undefined);
      } catch {
        // Unreachable or timed out: recorded as status 0; the browser flow goes on.
      }
      confirmations.push({ url, fields: { ...fields }, status });
    })();
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  }

  /** Moves the transaction to `outcome`, re-signs (the signed fields do not change) and confirms. */
  function settle(transaction: Transaction, outcome: EpaycoOutcome): Promise<void> {
    const f = transaction.fields;
    f.x_cod_transaction_state = String(outcome.code);
    f.x_cod_response = String(outcome.code);
    f.x_response = outcome.text;
    f.x_response_reason_text = outcome.reason;
    if (outcome.code === APPROVED.code) f.x_approval_code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    else if (outcome.code !== REVERSED.code) f.x_approval_code = '000000';
    f.x_signature = signatureOf(keys, { x_ref_payco: f.x_ref_payco, x_transaction_id: f.x_transaction_id, x_amount: f.x_amount, x_currency_code: f.x_currency_code });
    return confirm(transaction, { ...f });
  }

  /** A new transaction for the session (card digits, or null when the buyer abandoned). */
  function open(session: Session, card: string | null): Transaction {
    const gatewayRef = randomBytes(12).toString('hex');
    const [name, ...rest] = session.billingName.trim().split(/\s+/);
    const fields: Record<string, string> = {
      x_cust_id_cliente: keys.customerId,
      x_ref_payco: gatewayRef,
      x_id_invoice: session.invoice,
      x_description: session.description,
      x_amount: session.amount,
      x_amount_base: session.taxBase,
      x_tax: session.tax,
      x_currency_code: 'COP',
      x_transaction_id: String(randomInt(100_000_000, 1_000_000_000)),
      x_transaction_date: bogotaStamp(now()),
      x_approval_code: '000000',
      x_cod_transaction_state: '',
      x_cod_response: '',
      x_response: '',
      x_response_reason_text: '',
      x_franchise: card ? franchiseOf(card) : '',
      x_bank_name: card ? 'Banco de Pruebas' : '',
      x_cardnumber: card ? maskCard(card) : '',
      x_customer_name: name ?? '',
      x_customer_lastname: rest.join(' '),
      x_customer_email: session.billingEmail,
      x_customer_doctype: 'CC',
      x_customer_document: '1010101010',
      x_customer_ip: session.ip,
      x_type_payment: card ? 'TDC' : '',
      x_test_request: 'TRUE',
      x_extra1: session.extra1,
      x_signature: '',
    };
    const transaction: Transaction = { session, fields, last: null };
    transactions.set(gatewayRef, transaction);
    session.gatewayRef = gatewayRef;
    return transaction;
  }

  // HTTP -------------------------------------------------------------------------------------
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  };
  const html = (response: ServerResponse, status: number, page: string) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  };
  const redirect = (response: ServerResponse, location: string) => {
    response.writeHead(303, { location }).end();
  };

  function login(request: IncomingMessage, response: ServerResponse) {
    const expected = `Basic ${Buffer.from(`${keys.publicKey}:${keys.privateKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return json(response, 401, { error: 'Invalid credentials' });
    const token = randomBytes(24).toString('base64url');
    tokens.add(token);
    return json(response, 200, { token });
  }

  function createSession(request: IncomingMessage, response: ServerResponse, raw: string) {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Bearer ') || !tokens.has(header.slice(7))) return json(response, 401, { success: false, textResponse: 'Token inválido o vencido' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
      if (body === null || typeof body !== 'object') throw new Error('not an object');
    } catch {
      return json(response, 400, { success: false, textResponse: 'JSON inválido' });
    }
    const amount = typeof body.amount === 'number' ? String(body.amount) : body.amount;
    const refuse = (textResponse: string) => json(response, 400, { success: false, textResponse });
    if (typeof body.invoice !== 'string' || !body.invoice.trim()) return refuse('El campo invoice es obligatorio');
    if (typeof amount !== 'string' || !AMOUNT.test(amount)) return refuse('El campo amount no es válido');
    if (!isHttpUrl(body.confirmation)) return refuse('El campo confirmation es obligatorio');
    if (!isHttpUrl(body.response)) return refuse('El campo response es obligatorio');
    const billing = (body.billing && typeof body.billing === 'object' ? body.billing : {}) as Record<string, unknown>;
    const extras = (body.extras && typeof body.extras === 'object' ? body.extras : {}) as Record<string, unknown>;
    const str = (value: unknown, fallback = '') => (typeof value === 'string' || typeof value === 'number' ? String(value) : fallback);
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      invoice: body.invoice,
      description: str(body.description, str(body.name)),
      amount,
      taxBase: str(body.taxBase, amount),
      tax: str(body.tax, '0'),
      confirmation: body.confirmation,
      response: body.response,
      billingName: str(billing.name),
      billingEmail: str(billing.email),
      ip: str(body.ip),
      extra1: str(extras.extra1),
      gatewayRef: null,
    };
    sessions.set(session.id, session);
    return json(response, 200, { success: true, titleResponse: 'Sesión creada', textResponse: 'Sesión creada', data: { sessionId: session.id } });
  }

  const viewOf = (session: Session) => {
    const done = session.gatewayRef ? transactions.get(session.gatewayRef)?.fields.x_response : undefined;
    return { sessionId: session.id, description: session.description, invoice: session.invoice, amount: session.amount, done };
  };

  async function pay(response: ServerResponse, form: URLSearchParams) {
    const session = sessions.get(form.get('sessionId') ?? '');
    if (!session) return html(response, 404, notFoundPage());
    if (session.gatewayRef) return redirect(response, returnUrl(session.response, session.gatewayRef));
    const card = (form.get('card') ?? '').replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(card)) return html(response, 400, checkoutPage(viewOf(session), 'Escribe un número de tarjeta de 12 a 19 dígitos.'));
    const test = EPAYCO_TEST_CARDS.find((c) => c.number === card);
    const transaction = open(session, card);
    await settle(transaction, test?.outcome ?? INVALID_CARD);
    if (test?.pendingThenApproved) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void settle(transaction, APPROVED);
      }, pendingMs);
      timers.add(timer);
    }
    return redirect(response, returnUrl(session.response, transaction.fields.x_ref_payco));
  }

  async function cancel(response: ServerResponse, form: URLSearchParams) {
    const session = sessions.get(form.get('sessionId') ?? '');
    if (!session) return html(response, 404, notFoundPage());
    if (!session.gatewayRef) await settle(open(session, null), ABANDONED);
    return redirect(response, returnUrl(session.response, session.gatewayRef!));
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = request.method ?? 'GET';
    try {
      if (method === 'POST' && path === '/login') {
        await readBody(request);
        return login(request, response);
      }
      if (method === 'POST' && path === '/payment/session/create') return createSession(request, response, await readBody(request));
      if (method === 'GET' && path === '/checkout') {
        const session = sessions.get(url.searchParams.get('sessionId') ?? '');
        return session ? html(response, 200, checkoutPage(viewOf(session))) : html(response, 404, notFoundPage());
      }
      if (method === 'POST' && path === '/checkout/pay') return await pay(response, new URLSearchParams(await readBody(request)));
      if (method === 'POST' && path === '/checkout/cancel') return await cancel(response, new URLSearchParams(await readBody(request)));
      const validation = /^\/validation\/v1\/reference\/([^/]+)$/.exec(path);
      if (method === 'GET' && validation) {
        const transaction = transactions.get(decodeURIComponent(validation[1]));
        return transaction
          ? json(response, 200, { success: true, title_response: 'Transacción consultada', text_response: 'ok', data: { ...transaction.fields } })
          : json(response, 200, { success: false, title_response: 'Error', text_response: 'not found', data: {} });
      }
      return json(response, 404, { success: false, textResponse: 'not found' });
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      response.setHeader('connection', 'close');
      return json(response, 413, { success: false, textResponse: 'payload too large' });
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) json(response, 500, { success: false, textResponse: 'internal error' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const transactionOf = (gatewayRef: string) => {
    const found = transactions.get(gatewayRef);
    if (!found) throw new Error(`the ePayco sandbox has no transaction ${gatewayRef}`);
    return found;
  };

  return {
    url: base,
    settings: { apiUrl: base, secureUrl: base, checkoutScriptUrl: `${base}/checkout-v2.js`, ...keys, test: true },
    checkoutUrl: (sessionId) => `${base}/checkout?sessionId=${encodeURIComponent(sessionId)}`,
    confirmations,
    async reverse(gatewayRef) {
      const transaction = transactionOf(gatewayRef);
      if (transaction.fields.x_cod_transaction_state !== String(APPROVED.code)) throw new Error(`the ePayco sandbox can reverse only an approved transaction (${gatewayRef})`);
      await settle(transaction, REVERSED);
    },
    async resend(gatewayRef) {
      const transaction = transactionOf(gatewayRef);
      if (!transaction.last) throw new Error(`the ePayco sandbox has posted no confirmation for ${gatewayRef}`);
      await confirm(transaction, transaction.last);
    },
    transactions: () => [...transactions.entries()].map(([gatewayRef, t]) => ({
      gatewayRef, sessionId: t.session.id, invoice: t.session.invoice, code: Number(t.fields.x_cod_transaction_state), fields: { ...t.fields },
    })),
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
