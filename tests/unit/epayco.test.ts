// The ePayco client against the loopback stand-in, over real HTTP: login, checkout sessions, the
// checkout page, each test card's signed confirmation (received by a small recorder server and
// read back with readConfirmation), the pending card's later approval, abandon, reversal,
// replay, forged signatures, validation by reference, an unreachable gateway and the settings
// read from the environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { epaycoGateway, epaycoSettingsFromEnv, signatureOf, EPAYCO_URLS } from '../../src/engine/payments/epayco.ts';
import { PaymentGatewayError, type PaymentGateway } from '../../src/core/ports/payment.ts';
import { startEpaycoSandbox, type EpaycoSandbox } from '../../src/sandbox/epayco/index.ts';

type Fields = Record<string, string>;

/** Our confirmation endpoint: records every POST and wakes whoever waits for a match. */
async function startRecorder() {
  const received: Fields[] = [];
  const waiters: { match: (f: Fields) => boolean; resolve: (f: Fields) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      received.push(fields);
      for (const w of [...waiters]) if (w.match(fields)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(fields);
      }
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** The first confirmation (already received or still to come) that matches. */
    waitFor(match: (f: Fields) => boolean): Promise<Fields> {
      const found = received.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let standIn: EpaycoSandbox;
let recorder: Awaited<ReturnType<typeof startRecorder>>;
let gateway: PaymentGateway;
let invoices = 0;

beforeAll(async () => {
  recorder = await startRecorder();
  standIn = await startEpaycoSandbox({ pendingMs: 50 });
  gateway = epaycoGateway(standIn.settings, { standInCheckoutUrl: standIn.checkoutUrl });
});
afterAll(async () => {
  await standIn?.stop();
  await recorder?.close();
});

async function checkout(responseUrl = `${recorder.base}/vuelta?pedido=1`) {
  const reference = `PED-${++invoices}`;
  const session = await gateway.createCheckout({
    reference, amountCop: 50000, taxCop: 9500, description: 'Compra de 50.000 créditos', responseUrl,
    confirmationUrl: `${recorder.base}/confirmacion`, buyer: { name: 'Ana María Pérez', email: 'ana@example.co', ip: '190.0.0.1' },
  });
  return { reference, session };
}

const form = (path: string, fields: Fields) => fetch(`${standIn.url}${path}`, {
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual',
});

/** Pays with `card`: the 303's ref_payco and the first confirmation of that transaction. */
async function pay(card: string) {
  const { reference, session } = await checkout();
  const answer = await form('/checkout/pay', { sessionId: session.sessionId, card });
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(`${recorder.base}/vuelta`);
  expect(location.searchParams.get('pedido')).toBe('1');
  const ref = location.searchParams.get('ref_payco')!;
  expect(ref).toMatch(/^[0-9a-f]{24}$/);
  const fields = await recorder.waitFor((f) => f.x_ref_payco === ref);
  return { reference, session, ref, fields };
}

describe('login and checkout sessions', () => {
  it('refuses wrong keys, without the keys in the error', async () => {
    const basic = Buffer.from('sandbox-public:wrong').toString('base64');
    expect((await fetch(`${standIn.url}/login`, { method: 'POST', headers: { authorization: `Basic ${basic}` } })).status).toBe(401);
    const wrong = epaycoGateway({ ...standIn.settings, privateKey: 'not-the-private-key' });
    const error = await wrong.createCheckout({
      reference: 'X', amountCop: 1, taxCop: 0, description: 'x', responseUrl: `${recorder.base}/r`, confirmationUrl: `${recorder.base}/c`, buyer: { name: 'A', email: 'a@b.co', ip: '1.1.1.1' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as Error).message).toMatch(/login refused \(HTTP 401\)/);
    expect((error as Error).message).not.toContain('not-the-private-key');
  });

  it('creates a session whose checkout URL is the stand-in page (no script)', async () => {
    const { session } = await checkout();
    expect(session.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(session.checkoutUrl).toBe(standIn.checkoutUrl(session.sessionId));
    expect(session.script).toBeNull();
  });

  it('names the checkout script without a stand-in page', async () => {
    const plain = epaycoGateway(standIn.settings);
    const session = await plain.createCheckout({
      reference: 'PED-S', amountCop: 10000, taxCop: 0, description: 'x', responseUrl: `${recorder.base}/r`, confirmationUrl: `${recorder.base}/c`, buyer: { name: 'A', email: 'a@b.co', ip: '1.1.1.1' },
    });
    expect(session).toMatchObject({ checkoutUrl: null, script: { url: `${standIn.url}/checkout-v2.js`, test: true } });
  });

  it('refuses a session without a valid amount or a bad token', async () => {
    const basic = Buffer.from('sandbox-public:sandbox-private').toString('base64');
    const { token } = await (await fetch(`${standIn.url}/login`, { method: 'POST', headers: { authorization: `Basic ${basic}` } })).json() as { token: string };
    const create = (auth: string, body: unknown) => fetch(`${standIn.url}/payment/session/create`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const good = { invoice: 'I', amount: '100.50', confirmation: `${recorder.base}/c`, response: `${recorder.base}/r` };
    expect((await create(`Bearer ${token}`, good)).status).toBe(200);
    expect((await create(`Bearer ${token}`, { ...good, amount: '1,5' })).status).toBe(400);
    expect((await create(`Bearer ${token}`, { ...good, response: undefined })).status).toBe(400);
    expect((await create('Bearer nope', good)).status).toBe(401);
    expect((await create(`Bearer ${token}`, { ...good, pad: 'x'.repeat(70 * 1024) })).status).toBe(413);
  });
});

describe('the checkout page', () => {
  it('shows the total in COP, the test cards and both forms', async () => {
    const { session } = await checkout();
    const answer = await fetch(session.checkoutUrl!);
    expect(answer.status).toBe(200);
    const page = await answer.text();
    expect(page).toContain('<html lang="es">');
    expect(page).toContain(new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', minimumFractionDigits: 0 }).format(59500));
    expect(page).toContain('59.500');
    expect(page).toContain('<label for="card">');
    expect(page).toContain('4575623182290326');
    expect(page).toContain('action="/checkout/cancel"');
    expect(page).not.toContain('<script');
  });

  it('answers 404 for an unknown session', async () => {
    expect((await fetch(`${standIn.url}/checkout?sessionId=nope`)).status).toBe(404);
  });
});

describe('test cards and confirmations', () => {
  it.each([
    ['4575623182290326', 1, 'VS'],
    ['4151611527583283', 2, 'VS'],
    ['5170394490379427', 4, 'MC'],
    ['4000000000000002', 2, 'VS'],
  ])('card %s -> state %i', async (card, code, franchise) => {
    const { reference, ref, fields } = await pay(card);
    const tx = gateway.readConfirmation(fields);
    expect(tx).toMatchObject({ reference, gatewayRef: ref, code, amount: '59500', currency: 'COP', franchise, cardLast4: card.slice(-4), customerName: 'Ana María Pérez', test: true, ip: '190.0.0.1' });
    expect(tx!.at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(tx!.approvalCode).toMatch(code === 1 ? /^\d{6}$/ : /^000000$/);
    expect(fields.x_cardnumber).toMatch(/^\d{6}\*+\d{4}$/);
    expect(standIn.confirmations.find((c) => c.fields.x_ref_payco === ref)?.status).toBe(200);
  });

  it('a paid session sends the browser back with the same ref, no second transaction', async () => {
    const { session, ref } = await pay('4575623182290326');
    const before = standIn.transactions().length;
    const again = await form('/checkout/pay', { sessionId: session.sessionId, card: '4151611527583283' });
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get('location')!).searchParams.get('ref_payco')).toBe(ref);
    expect(standIn.transactions().length).toBe(before);
  });

  it('the pending card is confirmed pending, then approved', async () => {
    const { ref, fields } = await pay('373118856457642');
    expect(gateway.readConfirmation(fields)?.code).toBe(3);
    const approved = await recorder.waitFor((f) => f.x_ref_payco === ref && f.x_cod_transaction_state === '1');
    expect(gateway.readConfirmation(approved)).toMatchObject({ code: 1, text: 'Aceptada', franchise: 'AM' });
  });

  it('cancel abandons the session (state 10)', async () => {
    const { reference, session } = await checkout();
    const answer = await form('/checkout/cancel', { sessionId: session.sessionId });
    expect(answer.status).toBe(303);
    const ref = new URL(answer.headers.get('location')!).searchParams.get('ref_payco')!;
    const fields = await recorder.waitFor((f) => f.x_ref_payco === ref);
    expect(gateway.readConfirmation(fields)).toMatchObject({ reference, code: 10, text: 'Abandonada', cardLast4: null });
  });

  it('refuses forged or reformatted confirmations', async () => {
    const { fields } = await pay('4575623182290326');
    const flipped = fields.x_signature.slice(0, -1) + (fields.x_signature.endsWith('0') ? '1' : '0');
    expect(gateway.readConfirmation({ ...fields, x_signature: flipped })).toBeNull();
    expect(gateway.readConfirmation({ ...fields, x_amount: '59500.00' })).toBeNull();
    expect(gateway.readConfirmation({ ...fields, x_signature: '' })).toBeNull();
    const { x_signature: _dropped, ...unsigned } = fields;
    expect(gateway.readConfirmation(unsigned)).toBeNull();
    expect(gateway.readConfirmation({ ...fields, x_signature: 'short' })).toBeNull();
    expect(epaycoGateway({ ...standIn.settings, pKey: 'other' }).readConfirmation(fields)).toBeNull();
    expect(signatureOf(standIn.settings, { x_ref_payco: fields.x_ref_payco, x_transaction_id: fields.x_transaction_id, x_amount: fields.x_amount, x_currency_code: fields.x_currency_code })).toBe(fields.x_signature);
  });

  it('validation by reference returns the transaction, null when unknown', async () => {
    const { reference, ref } = await pay('4575623182290326');
    expect(await gateway.lookup(ref)).toMatchObject({ reference, gatewayRef: ref, code: 1, amount: '59500' });
    expect(await gateway.lookup('nope')).toBeNull();
  });

  it('reverse posts a state-6 confirmation; resend posts the last one again', async () => {
    const { ref } = await pay('4575623182290326');
    await standIn.reverse(ref);
    const reversed = await recorder.waitFor((f) => f.x_ref_payco === ref && f.x_cod_transaction_state === '6');
    expect(gateway.readConfirmation(reversed)).toMatchObject({ code: 6, text: 'Reversada' });
    expect((await gateway.lookup(ref))?.code).toBe(6);
    const count = recorder.received.filter((f) => f.x_ref_payco === ref).length;
    await standIn.resend(ref);
    const mine = recorder.received.filter((f) => f.x_ref_payco === ref);
    expect(mine.length).toBe(count + 1);
    expect(mine.at(-1)).toEqual(reversed);
  });
});

describe('failures and settings', () => {
  it('an unreachable confirmation URL does not break the browser flow', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/confirmacion`;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const session = await gateway.createCheckout({
      reference: 'PED-DEAD', amountCop: 10000, taxCop: 0, description: 'x', responseUrl: `${recorder.base}/r`, confirmationUrl: deadUrl, buyer: { name: 'A', email: 'a@b.co', ip: '1.1.1.1' },
    });
    const answer = await form('/checkout/pay', { sessionId: session.sessionId, card: '4575623182290326' });
    expect(answer.status).toBe(303);
    expect(standIn.confirmations.find((c) => c.url === deadUrl)?.status).toBe(0);
  });

  it('an unreachable gateway rejects with PaymentGatewayError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = epaycoGateway({ ...standIn.settings, apiUrl: url, secureUrl: url, timeoutMs: 2000 });
    await expect(down.createCheckout({
      reference: 'X', amountCop: 1, taxCop: 0, description: 'x', responseUrl: `${recorder.base}/r`, confirmationUrl: `${recorder.base}/c`, buyer: { name: 'A', email: 'a@b.co', ip: '1.1.1.1' },
    })).rejects.toBeInstanceOf(PaymentGatewayError);
    await expect(down.lookup('abc')).rejects.toBeInstanceOf(PaymentGatewayError);
  });

  it('reads the settings from the environment', () => {
    expect(epaycoSettingsFromEnv({})).toBeNull();
    expect(() => epaycoSettingsFromEnv({ EPAYCO_PUBLIC_KEY: 'p', EPAYCO_P_KEY: 'k' })).toThrow(/EPAYCO_PRIVATE_KEY, EPAYCO_CUSTOMER_ID/);
    const full = { EPAYCO_PUBLIC_KEY: 'p', EPAYCO_PRIVATE_KEY: 's', EPAYCO_CUSTOMER_ID: '1', EPAYCO_P_KEY: 'k' };
    expect(epaycoSettingsFromEnv(full)).toEqual({ ...EPAYCO_URLS, publicKey: 'p', privateKey: 's', customerId: '1', pKey: 'k', test: true });
    expect(epaycoSettingsFromEnv({ ...full, EPAYCO_TEST: 'false', EPAYCO_API_URL: 'http://a', EPAYCO_SECURE_URL: 'http://b' })).toMatchObject({ test: false, apiUrl: 'http://a', secureUrl: 'http://b' });
  });
});
