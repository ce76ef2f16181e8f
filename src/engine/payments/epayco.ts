// The ePayco client (research protocols.md §5): Smart Checkout v2 sessions created server side
// (login with the public and private keys, then session/create with the bearer token), signed
// confirmations read with the merchant's P_KEY, and validation by reference for the browser's
// ?ref_payco= return and for pending payments. It speaks to ePayco or, with the same code, to
// the sandbox's loopback stand-in (src/sandbox/epayco). The keys never reach an error message.
import { timingSafeEqual } from 'node:crypto';
import { PaymentGatewayError, type CheckoutRequest, type CheckoutSession, type GatewayTransaction, type PaymentGateway } from '../../core/ports/payment.ts';
import { EPAYCO_URLS, signatureOf, type EpaycoSettings } from './epayco-protocol.ts';

export { EPAYCO_URLS, signatureOf, type EpaycoSettings, type SignedFields } from './epayco-protocol.ts';

const DEFAULT_TIMEOUT_MS = 10_000;
/** ePayco's login token is reused this long (it lives longer; a 401 renews it anyway). */
const TOKEN_TTL_MS = 10 * 60 * 1000;
const REQUIRED_ENV = ['EPAYCO_PUBLIC_KEY', 'EPAYCO_PRIVATE_KEY', 'EPAYCO_CUSTOMER_ID', 'EPAYCO_P_KEY'] as const;

/** The settings from the environment; null when no key is set, an Error naming the missing ones when only some are. */
export function epaycoSettingsFromEnv(env: NodeJS.ProcessEnv): EpaycoSettings | null {
  const missing = REQUIRED_ENV.filter((name) => !env[name]);
  if (missing.length === REQUIRED_ENV.length) return null;
  if (missing.length > 0) throw new Error(`ePayco is partly configured: missing ${missing.join(', ')}`);
  return {
    apiUrl: env.EPAYCO_API_URL || EPAYCO_URLS.apiUrl,
    secureUrl: env.EPAYCO_SECURE_URL || EPAYCO_URLS.secureUrl,
    checkoutScriptUrl: EPAYCO_URLS.checkoutScriptUrl,
    publicKey: env.EPAYCO_PUBLIC_KEY!,
    privateKey: env.EPAYCO_PRIVATE_KEY!,
    customerId: env.EPAYCO_CUSTOMER_ID!,
    pKey: env.EPAYCO_P_KEY!,
    test: env.EPAYCO_TEST !== 'false',
  };
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** The x_ fields of a confirmation or a validation answer as a GatewayTransaction; null without a reference or a state code. */
function transactionOf(f: Record<string, unknown>): GatewayTransaction | null {
  const gatewayRef = text(f.x_ref_payco);
  const rawCode = text(f.x_cod_transaction_state) || text(f.x_cod_response);
  const code = /^\d+$/.test(rawCode) ? Number(rawCode) : Number.NaN;
  if (!gatewayRef || !Number.isSafeInteger(code)) return null;
  const cardDigits = /(\d{4})$/.exec(text(f.x_cardnumber));
  return {
    reference: text(f.x_id_invoice),
    gatewayRef,
    transactionId: text(f.x_transaction_id),
    code,
    text: text(f.x_response),
    reason: text(f.x_response_reason_text),
    amount: text(f.x_amount),
    currency: text(f.x_currency_code),
    franchise: text(f.x_franchise),
    bank: text(f.x_bank_name),
    approvalCode: text(f.x_approval_code),
    cardLast4: cardDigits ? cardDigits[1] : null,
    customerName: `${text(f.x_customer_name)} ${text(f.x_customer_lastname)}`.trim(),
    docType: text(f.x_customer_doctype),
    docNumber: text(f.x_customer_document),
    ip: text(f.x_customer_ip),
    paymentType: text(f.x_type_payment),
    at: text(f.x_transaction_date) || text(f.x_fecha_transaccion),
    test: f.x_test_request === 'TRUE' || f.x_test_request === true,
  };
}

/** True when x_signature matches the fields (constant time over equal lengths). */
function signed(settings: EpaycoSettings, f: Record<string, unknown>): boolean {
  const given = f.x_signature;
  if (typeof given !== 'string' || given.length === 0) return false;
  const expected = Buffer.from(signatureOf(settings, {
    x_ref_payco: text(f.x_ref_payco), x_transaction_id: text(f.x_transaction_id), x_amount: text(f.x_amount), x_currency_code: text(f.x_currency_code),
  }));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected);
}

export function epaycoGateway(settings: EpaycoSettings, options: { fetch?: typeof fetch; standInCheckoutUrl?: (sessionId: string) => string } = {}): PaymentGateway {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const secrets = [settings.privateKey, settings.pKey, settings.publicKey].filter((s) => s.length > 0);
  let token: { value: string; until: number } | null = null;

  /** An error for the caller, with any key that crept into the text masked. */
  const failure = (message: string, cause?: unknown) => {
    let clean = message;
    for (const secret of secrets) clean = clean.split(secret).join('***');
    return new PaymentGatewayError(clean, cause === undefined ? undefined : { cause });
  };

  async function call(step: string, url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw failure(`ePayco ${step}: unreachable (${(error as Error).name})`);
    }
    let body: unknown;
    try {
      const raw = await response.text();
      body = raw ? JSON.parse(raw) : null;
    } catch {
      // Not JSON (an HTML error page, a cut answer): the status says what went wrong.
      body = null;
    }
    return { status: response.status, body };
  }

  const refusal = (body: unknown): string => {
    const b = (body ?? {}) as Record<string, unknown>;
    const said = b.textResponse ?? b.text_response ?? b.message ?? b.error;
    return typeof said === 'string' ? `: ${said.slice(0, 200)}` : '';
  };

  async function login(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const basic = Buffer.from(`${settings.publicKey}:${settings.privateKey}`).toString('base64');
    const { status, body } = await call('login', `${settings.apiUrl}/login`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' }, body: '{}' });
    const value = (body as { token?: unknown } | null)?.token;
    if (status < 200 || status >= 300 || typeof value !== 'string' || !value) throw failure(`ePayco login refused (HTTP ${status})${refusal(body)}`);
    token = { value, until: Date.now() + TOKEN_TTL_MS };
    return value;
  }

  return {
    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      const payload = JSON.stringify({
        name: request.description,
        description: request.description,
        invoice: request.reference,
        currency: 'cop',
        amount: String(request.amountCop + request.taxCop),
        taxBase: String(request.amountCop),
        tax: String(request.taxCop),
        taxIco: '0',
        country: 'CO',
        lang: 'es',
        confirmation: request.confirmationUrl,
        response: request.responseUrl,
        billing: { name: request.buyer.name, email: request.buyer.email },
        ip: request.buyer.ip,
        test: settings.test,
        method: 'POST',
        checkout_version: '2',
        extras: { extra1: request.reference },
      });
      const create = async (bearer: string) => call('session/create', `${settings.apiUrl}/payment/session/create`, {
        method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: payload,
      });
      let answer = await create(await login());
      if (answer.status === 401) {
        token = null;
        answer = await create(await login());
      }
      const sessionId = (answer.body as { data?: { sessionId?: unknown } } | null)?.data?.sessionId;
      if (answer.status < 200 || answer.status >= 300 || (answer.body as { success?: unknown } | null)?.success === false || typeof sessionId !== 'string' || !sessionId) {
        throw failure(`ePayco session/create refused (HTTP ${answer.status})${refusal(answer.body)}`);
      }
      const standIn = options.standInCheckoutUrl;
      return { sessionId, checkoutUrl: standIn ? standIn(sessionId) : null, script: standIn ? null : { url: settings.checkoutScriptUrl, test: settings.test } };
    },

    readConfirmation(fields: Record<string, string>): GatewayTransaction | null {
      return signed(settings, fields) ? transactionOf(fields) : null;
    },

    async lookup(gatewayRef: string): Promise<GatewayTransaction | null> {
      const { status, body } = await call('validation', `${settings.secureUrl}/validation/v1/reference/${encodeURIComponent(gatewayRef)}`, { method: 'GET', headers: { accept: 'application/json' } });
      if (status === 404) return null;
      if (status < 200 || status >= 300 || body === null || typeof body !== 'object') throw failure(`ePayco validation failed (HTTP ${status})`);
      const { success, data } = body as { success?: unknown; data?: unknown };
      if (success === false || data === null || typeof data !== 'object') return null;
      const f = data as Record<string, unknown>;
      // Trusted as it comes over our own TLS call; a signature it carries must still match.
      if (f.x_signature !== undefined && f.x_signature !== null && f.x_signature !== '' && !signed(settings, f)) return null;
      return transactionOf(f);
    },
  };
}
