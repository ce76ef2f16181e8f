// Buying credits end to end, on PGlite or PostgreSQL (DATABASE_URL): a real server
// listening on loopback, the ePayco stand-in (a real HTTP server speaking ePayco's protocol, with
// its test cards) and the same client the real ePayco gets. A confirmation only names a
// transaction; what the gateway answers of it is the only source of truth: credits are added once (replays, 20 concurrent confirmations), forged
// signatures and amounts that are not the order's change nothing, a reversal takes credits back
// once, the response page's read asks the gateway by reference, and the follow-up gives up an
// order nobody confirms. The balance never goes below zero when spending and buying race.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, consume, expirePromotions, reserve } from '../../src/engine/credits.ts';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { PaymentGatewayError } from '../../src/core/ports/payment.ts';
import { confirmByGateway } from '../../src/engine/payments/confirmed.ts';
import { epaycoGateway, signatureOf } from '../../src/engine/payments/epayco.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { startEpaycoSandbox, type EpaycoSandbox } from '../../src/sandbox/epayco/index.ts';
import { createHarness, type Harness, type OpArgs } from './harness.ts';
import { readPdf } from './pdf-reader.ts';
import { until } from './until.ts';

let h: Harness;
let standIn: EpaycoSandbox;
let host = '';
let manager = '';
let companyId = 0;

const APPROVE = '4575623182290326';
const REJECT = '4151611527583283';
const PENDING = '373118856457642';

beforeAll(async () => {
  standIn = await startEpaycoSandbox({ pendingMs: 150 });
  h = await createHarness({ payments: epaycoGateway(standIn.settings, { standInCheckoutUrl: (id) => standIn.checkoutUrl(id) }) });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  host = `127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const me = await h.as('manager');
  manager = me.token;
  companyId = (await h.db.selectFrom('users').select('company_id').where('email', '=', me.session.email).executeTakeFirstOrThrow()).company_id;
}, 60_000);

afterAll(async () => {
  await h?.close();
  await standIn?.stop();
});

/** An operation as the console calls it: to this server's address, so the gateway's confirmations come back here. */
const op = (id: Parameters<Harness['op']>[0], args: OpArgs = {}) => h.op(id, { token: manager, ...args, headers: { host, ...args.headers } });
const balance = async () => (await balanceOf(h.db, companyId)).balance;

async function order(amount: number) {
  const res = await op('payments.create', { body: { amount } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { payment: { id: number; invoice: string; status: string; amount: number; creditsMoved: number }; checkout: { sessionId: string; url: string } };
}

/** The buyer on the stand-in's checkout page: pays with `card`, or cancels (null). Answers where the browser is sent back. */
async function checkout(url: string, card: string | null): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Pagar');
  const sessionId = new URL(url).searchParams.get('sessionId')!;
  const res = await fetch(`${standIn.url}/checkout/${card ? 'pay' : 'cancel'}`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams(card ? { sessionId, card } : { sessionId }),
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

const payment = async (invoice: string) => h.db.selectFrom('payments').selectAll().where('invoice', '=', invoice).executeTakeFirstOrThrow();
const purchaseMovements = async (invoice: string) => (await h.db.selectFrom('credit_ledger').select('amount').where('reference', '=', invoice).where('kind', '=', 'purchase').execute()).length;

describe('buying credits through ePayco', () => {
  it('adds the credits of an approved purchase once, and the buyer comes back to the order as our server states it', async () => {
    const before = await balance();
    const { payment: ordered, checkout: session } = await order(50_000);
    expect(ordered).toMatchObject({ status: 'pending', amount: 50_000, creditsMoved: 50_000 });
    expect(session.url).toContain(standIn.url);
    const back = await checkout(session.url, APPROVE);
    expect(back.pathname).toBe('/epaycoResponse');
    expect(back.searchParams.get('invoice')).toBe(ordered.invoice);
    const ref = back.searchParams.get('ref_payco')!;
    expect(await balance()).toBe(before + 50_000);
    const read = (await op('payments.byInvoice', { params: { invoice: ordered.invoice }, query: { ref_payco: ref } })).json();
    expect(read).toMatchObject({ status: 'approved', reference: ref, creditsMoved: 50_000, cardNumber: '**** 0326', method: 'VS', gatewayCode: 1 });
    const summary = (await op('account.paymentsSummary')).json();
    expect(summary.purchasedThisMonth).toBeGreaterThanOrEqual(50_000);
    // The history lists it with every field; the detail reads the same.
    const list = (await op('payments.list', { query: { status: 'approved', q: ordered.invoice } })).json();
    expect(list.items.map((p: { invoice: string }) => p.invoice)).toEqual([ordered.invoice]);
    expect((await op('payments.get', { params: { id: ordered.id } })).json()).toMatchObject({ invoice: ordered.invoice, status: 'approved', bank: 'Banco de Pruebas', documentType: 'CC' });
    // A replayed confirmation changes nothing.
    await standIn.resend(ref);
    expect(standIn.confirmations.at(-1)?.status).toBe(200);
    expect(await balance()).toBe(before + 50_000);
    expect(await purchaseMovements(ordered.invoice)).toBe(1);
  });

  it('refuses purchases out of range with 99902 on amount, and records nothing', async () => {
    const count = await h.count('payments');
    for (const amount of [9_999, 0, 50_000_001]) {
      const res = await op('payments.create', { body: { amount } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: '99902', errors: [{ field: 'amount', code: '99902' }] });
    }
    expect(await h.count('payments')).toBe(count);
  });

  it('a rejected and an abandoned purchase add nothing and say so', async () => {
    const before = await balance();
    const rejected = await order(20_000);
    await checkout(rejected.checkout.url, REJECT);
    expect(await payment(rejected.payment.invoice)).toMatchObject({ status: 'rejected', gateway_code: 2, credited_at: null });
    const abandoned = await order(30_000);
    await checkout(abandoned.checkout.url, null);
    expect(await payment(abandoned.payment.invoice)).toMatchObject({ status: 'abandoned', gateway_code: 10, credited_at: null });
    expect(await balance()).toBe(before);
    // A late word cannot revive a rejected order.
    const ref = (await payment(rejected.payment.invoice)).gateway_ref!;
    await standIn.resend(ref);
    expect((await payment(rejected.payment.invoice)).status).toBe('rejected');
    expect((await op('payments.voucherLink', { params: { id: rejected.payment.id } })).json().code).toBe('99959');
  });

  it('a pending payment stays pending, then its approval adds the credits', async () => {
    const before = await balance();
    const { payment: ordered, checkout: session } = await order(15_000);
    await checkout(session.url, PENDING);
    expect((await payment(ordered.invoice)).status).toBe('pending');
    await until('the pending payment approved', async () => (await payment(ordered.invoice)).status === 'approved');
    expect(await balance()).toBe(before + 15_000);
  });

  it('refuses forged confirmations and amounts that are not the order\'s', async () => {
    const { payment: ordered, checkout: session } = await order(40_000);
    // The buyer pays, but the confirmation never reaches us (the stand-in posts it to a closed port).
    const before = await balance();
    const lost = await h.op('payments.create', { token: manager, body: { amount: 40_000 }, headers: { host: '127.0.0.1:9' } });
    const lostOrder = lost.json() as { payment: { invoice: string }; checkout: { url: string } };
    const back = await checkout(lostOrder.checkout.url, APPROVE);
    expect(standIn.confirmations.at(-1)?.status).toBe(0);
    expect((await payment(lostOrder.payment.invoice)).status).toBe('pending');
    const genuine: Record<string, string> = { ...standIn.confirmations.at(-1)!.fields };
    const post = (fields: Record<string, string>) => h.app.inject({ method: 'POST', url: '/v1/payments/epayco/confirmation', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    // Forged: the signature of other values, the amount reformatted (signed strings are taken as sent), no signature.
    expect((await post({ ...genuine, x_signature: genuine.x_signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')) })).statusCode).toBe(400);
    expect((await post({ ...genuine, x_amount: `${genuine.x_amount}.00` })).statusCode).toBe(400);
    const { x_signature: _dropped, ...unsigned } = genuine;
    expect((await post(unsigned)).statusCode).toBe(400);
    // Signed, but for another amount than the gateway states for the transaction: refused, nothing changes.
    const cheaper: Record<string, string> = { ...genuine, x_amount: '10000' };
    cheaper.x_signature = signatureOf(standIn.settings, { x_ref_payco: cheaper.x_ref_payco, x_transaction_id: cheaper.x_transaction_id, x_amount: cheaper.x_amount, x_currency_code: cheaper.x_currency_code });
    expect((await post(cheaper)).statusCode).toBe(400);
    // Signed, with its unsigned invoice changed to one we never made: the gateway names another.
    expect((await post({ ...genuine, x_id_invoice: 'CLB-0-NADA-000000' })).statusCode).toBe(400);
    expect((await payment(lostOrder.payment.invoice)).status).toBe('pending');
    expect(await balance()).toBe(before);
    // The buyer's return asks the gateway by reference: an edited ref_payco of another order counts for nothing…
    const otherRef = (await payment((await h.db.selectFrom('payments').select('invoice').where('status', '=', 'approved').orderBy('id').executeTakeFirstOrThrow()).invoice)).gateway_ref!;
    expect((await op('payments.byInvoice', { params: { invoice: lostOrder.payment.invoice }, query: { ref_payco: otherRef } })).json().status).toBe('pending');
    // …its own does: the gateway says approved, for this order and amount.
    const read = (await op('payments.byInvoice', { params: { invoice: lostOrder.payment.invoice }, query: { ref_payco: back.searchParams.get('ref_payco')! } })).json();
    expect(read.status).toBe('approved');
    expect(await balance()).toBe(before + 40_000);
    // 20 copies of the genuine confirmation at once: the credits were added once.
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(genuine)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(await balance()).toBe(before + 40_000);
    expect(await purchaseMovements(lostOrder.payment.invoice)).toBe(1);
    void ordered;
    void session;
  });

  it('credits only money the gateway confirms: unsigned state and invoice changed, replays onto other orders and forged reversals change nothing', async () => {
    const post = (fields: Record<string, string>) => h.app.inject({ method: 'POST', url: '/v1/payments/epayco/confirmation', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    const ledgerSize = async () => Number((await h.db.selectFrom('credit_ledger').select((eb) => eb.fn.countAll().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);
    // A real rejected card payment: its signed fields are what the buyer can read from the gateway's validation answer.
    const rejected = await order(10_000);
    const rejectedRef = (await checkout(rejected.checkout.url, REJECT)).searchParams.get('ref_payco')!;
    await until('the rejection applied', async () => (await payment(rejected.payment.invoice)).status === 'rejected');
    const validation = (await (await fetch(`${standIn.url}/validation/v1/reference/${rejectedRef}`)).json()) as { data: Record<string, string> };
    const rejectedFields = validation.data;
    expect(rejectedFields.x_cod_transaction_state).toBe('2');
    // One real approval of 10,000 COP.
    const paid = await order(10_000);
    const paidRef = (await checkout(paid.checkout.url, APPROVE)).searchParams.get('ref_payco')!;
    await until('the approval applied', async () => (await payment(paid.payment.invoice)).status === 'approved');
    const approvedFields = { ...standIn.transactions().find((t) => t.gatewayRef === paidRef)!.fields };
    const before = await balance();
    const movements = await ledgerSize();
    // Three new unpaid orders of the same amount (never paid at the gateway).
    const unpaid = [];
    for (let i = 0; i < 3; i++) unpaid.push((await op('payments.create', { body: { amount: 10_000 }, headers: { host: '127.0.0.1:9' } })).json() as { payment: { invoice: string } });
    // The rejected payment's signed fields, its state changed to approved, on its own order and on a new unpaid one.
    expect((await post({ ...rejectedFields, x_cod_transaction_state: '1', x_cod_response: '1', x_response: 'Aceptada' })).statusCode).toBe(200);
    expect((await payment(rejected.payment.invoice)).status).toBe('rejected');
    expect((await post({ ...rejectedFields, x_cod_transaction_state: '1', x_cod_response: '1', x_id_invoice: unpaid[0].payment.invoice })).statusCode).toBe(400);
    // The real approval replayed with the invoices of the three new orders.
    for (const { payment: p } of unpaid) expect((await post({ ...approvedFields, x_id_invoice: p.invoice })).statusCode).toBe(400);
    for (const { payment: p } of unpaid) expect((await payment(p.invoice)).status).toBe('pending');
    // A forged reversal: the approval's signed fields with the state of a reversal.
    expect((await post({ ...approvedFields, x_cod_transaction_state: '6', x_cod_response: '6', x_response: 'Reversada' })).statusCode).toBe(200);
    expect(await h.db.selectFrom('payments').select('id').where('reversal_of', '=', paid.payment.id).execute()).toHaveLength(0);
    // The buyer's return with the approved payment's reference, on a new order: not this order's transaction.
    expect((await op('payments.byInvoice', { params: { invoice: unpaid[1].payment.invoice }, query: { ref_payco: paidRef } })).json().status).toBe('pending');
    expect(await balance()).toBe(before);
    expect(await ledgerSize()).toBe(movements);
    // The gateway's own reversal of the real payment still takes its credits back, once.
    await standIn.reverse(paidRef);
    expect(await balance()).toBe(before - 10_000);
    // One transaction pays for one order, whatever writes the row.
    await expect(h.db.updateTable('payments').set({ gateway_ref: paidRef }).where('invoice', '=', unpaid[2].payment.invoice).execute()).rejects.toThrow();
  });

  it('a confirmation is held, not applied, while the gateway cannot be asked', async () => {
    const lost = (await h.op('payments.create', { token: manager, body: { amount: 11_000 }, headers: { host: '127.0.0.1:9' } })).json() as { payment: { invoice: string }; checkout: { url: string } };
    await checkout(lost.checkout.url, APPROVE);
    const word = epaycoGateway(standIn.settings).readConfirmation(standIn.confirmations.at(-1)!.fields)!;
    const unreachable = epaycoGateway({ ...standIn.settings, secureUrl: 'http://127.0.0.1:9' });
    await expect(confirmByGateway(h.db, unreachable, { gatewayRef: word.gatewayRef, invoice: word.reference }, new Date())).rejects.toBeInstanceOf(PaymentGatewayError);
    expect((await payment(lost.payment.invoice)).status).toBe('pending');
  });

  it('20 concurrent first confirmations of one order add its credits once', async () => {
    const lost = (await h.op('payments.create', { token: manager, body: { amount: 25_000 }, headers: { host: '127.0.0.1:9' } })).json() as { payment: { invoice: string }; checkout: { url: string } };
    await checkout(lost.checkout.url, APPROVE);
    const before = await balance();
    const fields = standIn.confirmations.at(-1)!.fields;
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.app.inject({
      method: 'POST', url: '/v1/payments/epayco/confirmation', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
    })));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await balance()).toBe(before + 25_000);
    expect(await purchaseMovements(lost.payment.invoice)).toBe(1);
  });

  it('a reversal is one debit movement that takes the credits back', async () => {
    const { payment: ordered, checkout: session } = await order(12_000);
    const ref = (await checkout(session.url, APPROVE)).searchParams.get('ref_payco')!;
    const before = await balance();
    await standIn.reverse(ref);
    await standIn.resend(ref); // the reversal again
    const debits = await h.db.selectFrom('payments').selectAll().where('reversal_of', '=', ordered.id).execute();
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ kind: 'reversal', status: 'debit', gateway_code: 6 });
    expect(Number(debits[0].credits)).toBe(12_000);
    expect(await balance()).toBe(before - 12_000);
    const listed = (await op('payments.list', { query: { kind: 'reversal' } })).json();
    expect(listed.items.some((p: { reversalOf: number }) => p.reversalOf === ordered.id)).toBe(true);
  });

  it('the voucher of an approved purchase is a PDF with the company, the transaction and its verification id', async () => {
    const { payment: ordered, checkout: session } = await order(10_000);
    await checkout(session.url, APPROVE);
    const link = (await op('payments.voucherLink', { params: { id: ordered.id } })).json();
    const res = await h.op('payments.voucher', { params: { id: ordered.id }, query: Object.fromEntries(new URL(link.url, 'http://x').searchParams) as Record<string, string> });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = await readPdf(res.rawPayload);
    const row = await payment(ordered.invoice);
    expect(pdf.text).toContain(ordered.invoice);
    expect(pdf.text).toContain(row.verification_id);
    expect(pdf.text).toContain('Comprobante de compra de créditos');
    expect(pdf.text).toContain('**** 0326');
    // An altered link opens nothing.
    const forged = await h.op('payments.voucher', { params: { id: ordered.id }, query: { expires: Number(new URL(link.url, 'http://x').searchParams.get('expires')) + 60, signature: new URL(link.url, 'http://x').searchParams.get('signature')! } });
    expect(forged.json().code).toBe('99982');
  });

  it('another company reads none of it, and a subscription plan does not buy credits', async () => {
    const mine = await h.db.selectFrom('payments').select('id').where('company_id', '=', companyId).orderBy('id').executeTakeFirstOrThrow();
    await h.addCompany('Suscrita SAS', [{ email: 'gerente@suscrita.com.co', roles: ['manager'] }]);
    const other = (await h.signin('gerente@suscrita.com.co')).token;
    expect((await h.op('payments.get', { token: other, params: { id: Number(mine.id) } })).json().code).toBe('99959');
    expect((await h.op('payments.voucherLink', { token: other, params: { id: Number(mine.id) } })).json().code).toBe('99959');
    expect((await h.op('payments.list', { token: other })).json().items).toEqual([]);
    expect((await h.op('payments.create', { token: other, body: { amount: 50_000 } })).json().code).toBe('99982');
  });

  it('the follow-up gives up an order nobody confirms, and a late approval still counts', async () => {
    const runner = () => new JobRunner({ db: h.db, workerId: 'payments-test', now: () => h.clock.now, handlers: jobHandlers({ db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage, payments: epaycoGateway(standIn.settings) }) }).drain();
    const silent = (await h.op('payments.create', { token: manager, body: { amount: 11_000 }, headers: { host: '127.0.0.1:9' } })).json() as { payment: { invoice: string }; checkout: { url: string } };
    await runner();
    expect((await payment(silent.payment.invoice)).status).toBe('pending');
    h.clock.advance(2 * 3_600_000);
    await runner();
    expect((await payment(silent.payment.invoice)).status).toBe('abandoned');
    // The buyer had paid after all: the gateway's approval arrives late and is honoured.
    const before = await balance();
    await checkout(silent.checkout.url, APPROVE);
    const fields = standIn.confirmations.at(-1)!.fields;
    const res = await h.app.inject({ method: 'POST', url: '/v1/payments/epayco/confirmation', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    expect(res.statusCode).toBe(200);
    expect((await payment(silent.payment.invoice)).status).toBe('approved');
    expect(await balance()).toBe(before + 11_000);
  });

  it('spending and buying at once never take the balance below zero and lose nothing', async () => {
    const start = await balanceOf(h.db, companyId);
    const orders = await Promise.all(Array.from({ length: 5 }, () => h.op('payments.create', { token: manager, body: { amount: 10_000 }, headers: { host: '127.0.0.1:9' } }).then((r) => r.json() as { checkout: { url: string } })));
    const confirmations: Record<string, string>[] = [];
    for (const o of orders) {
      await checkout(o.checkout.url, APPROVE);
      confirmations.push(standIn.confirmations.at(-1)!.fields);
    }
    const spend = Math.ceil((start.balance + 50_000) / 12);
    const results = await Promise.all([
      ...Array.from({ length: 15 }, () => h.db.transaction().execute((trx) => reserve(trx, { companyId, amount: spend, now: h.clock.now }))),
      ...confirmations.map((fields) => h.app.inject({ method: 'POST', url: '/v1/payments/epayco/confirmation', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() })),
    ]);
    const reserved = results.slice(0, 15).filter((r) => r !== null).length;
    const end = await balanceOf(h.db, companyId);
    expect(end.balance).toBeGreaterThanOrEqual(0);
    expect(end.balance).toBe(start.balance + 50_000 - reserved * spend);
    expect(end.reserved).toBe(start.reserved + reserved * spend);
    expect(reserved).toBeLessThan(15);
  });
});

describe('promotional credits', () => {
  it('staff grant them per channel until a date; others may not; a past date is refused', async () => {
    const platform = (await h.as('platform')).token;
    const grant = (token: string, body: unknown) => h.op('payments.grantPromotional', { token, params: { id: companyId }, body });
    expect((await grant(manager, { platform: 'sms', amount: 1000, expiresOn: '2099-01-01' })).json().code).toBe('99982');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(h.clock.now);
    expect((await grant(platform, { platform: 'sms', amount: 1000, expiresOn: today })).json()).toMatchObject({ code: '99962', errors: [{ field: 'expiresOn' }] });
    expect((await h.op('payments.grantPromotional', { token: platform, params: { id: 999_999 }, body: { platform: 'sms', amount: 1000, expiresOn: '2099-01-01' } })).json().code).toBe('99959');
  });

  it('only their channel reserves them, that channel spends them first, and what is left expires out of the balance once', async () => {
    const platform = (await h.as('platform')).token;
    const sms = await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow();
    // Spend the paid balance down to 500 first, so what is left is easy to follow.
    const start = await balanceOf(h.db, companyId);
    if (start.balance > 500) expect(await h.db.transaction().execute((trx) => reserve(trx, { companyId, amount: start.balance - 500, platform: 'sms', now: h.clock.now }))).not.toBeNull();
    const expiresOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(new Date(h.clock.now.getTime() + 3 * 86_400_000));
    const granted = await h.op('payments.grantPromotional', { token: platform, params: { id: companyId }, body: { platform: 'sms', amount: 1000, expiresOn } });
    expect(granted.json()).toMatchObject({ platform: 'sms', amount: 1000, remaining: 1000, expired: false });
    expect(await balance()).toBe(1500);
    expect((await op('account.paymentsSummary')).json().promotional).toBe(1000);
    // WhatsApp may not take the SMS promotion: 501 credits are more than its 500.
    expect(await h.db.transaction().execute((trx) => reserve(trx, { companyId, amount: 501, platform: 'whatsapp', now: h.clock.now }))).toBeNull();
    // SMS may: 800, and the 800 it spends come out of the promotion first.
    expect(await h.db.transaction().execute((trx) => reserve(trx, { companyId, amount: 800, platform: 'sms', now: h.clock.now }))).not.toBeNull();
    await h.db.transaction().execute((trx) => consume(trx, { companyId, channelId: sms.id, amount: 800, now: h.clock.now }));
    expect((await op('payments.promotions')).json()[0]).toMatchObject({ remaining: 200, expired: false });
    expect(await balance()).toBe(700);
    // Past its day: the 200 left leave the balance through the ledger, once, however many sweeps run.
    h.clock.advance(4 * 86_400_000);
    const sweeps = await Promise.all([expirePromotions(h.db, h.clock.now), expirePromotions(h.db, h.clock.now)]);
    expect(sweeps[0] + sweeps[1]).toBe(1);
    expect(await balance()).toBe(500);
    const expired = await h.db.selectFrom('credit_ledger').select(['amount']).where('company_id', '=', companyId).where('kind', '=', 'expire').execute();
    expect(expired.map((r) => Number(r.amount))).toEqual([200]);
    manager = (await h.as('manager')).token; // four days later: a new session
    expect((await op('payments.promotions')).json()[0]).toMatchObject({ remaining: 0, expired: true });
    expect((await op('account.paymentsSummary')).json().promotional).toBe(0);
  });

  it("a subscription plan's sending is bounded by its period's quota: 82 once it is spent, 83 once no period runs", async () => {
    const plan = await h.addCompany('Plan Mensual S.A.S.', [{ email: 'gerente@planmensual.co', roles: ['manager'] }]);
    await h.db.updateTable('companies').set({ plan_type: 'subscription' }).where('id', '=', plan.companyId).execute();
    const channel = await h.db.insertInto('channels').values({ company_id: plan.companyId, name: 'SMS', platform: 'sms', type: 'MT', sender: '+573159990003', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    let token = (await h.signin('gerente@planmensual.co')).token;
    const send = async (to: string) => {
      const res = await h.op('messages.send', { token, body: { channelId: channel.id, to, text: 'Su pedido salió hoy' } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().messages[0] as { state: string; statusCode: number };
    };
    // No period granted: the subscription is not running.
    expect(await send('3001230001')).toMatchObject({ state: 'rejected', statusCode: 83 });
    // This period's quota: two SMS (one credit each) until three days from now.
    const expiresOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(new Date(h.clock.now.getTime() + 3 * 86_400_000));
    const staff = (await h.as('platform')).token;
    expect((await h.op('payments.grantPromotional', { token: staff, params: { id: plan.companyId }, body: { platform: 'sms', amount: 2, expiresOn } })).statusCode).toBe(200);
    expect([await send('3001230002'), await send('3001230003')].map((m) => m.statusCode)).toEqual([1, 1]);
    expect(await send('3001230004')).toMatchObject({ state: 'rejected', statusCode: 82 });
    // The period ends: what is sent after it says the subscription expired.
    h.clock.advance(4 * 86_400_000);
    await expirePromotions(h.db, h.clock.now);
    token = (await h.signin('gerente@planmensual.co')).token; // four days later: a new session
    expect(await send('3001230005')).toMatchObject({ state: 'rejected', statusCode: 83 });
    // A pilot company's shortfall is still 81.
    await h.db.updateTable('companies').set({ plan_type: 'pilot' }).where('id', '=', plan.companyId).execute();
    expect(await send('3001230006')).toMatchObject({ state: 'rejected', statusCode: 81 });
  });
});
