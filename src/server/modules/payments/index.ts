// Buying credits (schemas/api/payments.yaml). The order is ours before the buyer leaves:
// created pending with its invoice and its follow-up job in one transaction, then the gateway's
// checkout session is opened. Every state change after that is the gateway's word, applied by the
// one owner of payment states (engine/payments/payments.ts): the signed confirmation webhook
// (webhooks/payments.ts), validation by reference when the buyer returns, the follow-up job.
import { calendarDate, dateRangeProblem, dayAfter, dayStart } from '../../../core/date-range.ts';
import { purchasable, quotePurchase } from '../../../core/payment-quote.ts';
import { PaymentGatewayError } from '../../../core/ports/payment.ts';
import { confirmByGateway, abandonPayment, attachCheckoutSession, createPurchase, CREDITED, type PaymentRow } from '../../../engine/payments/index.ts';
import { createJob } from '../../../engine/lifecycle/index.ts';
import { grantPromotional } from '../../../engine/credits.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { Payment, PromotionalCredit } from '../../../generated/types.gen.ts';
import { creditMovementMeta, type CreditMovement } from '../../../generated/enums.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { requestOrigin } from '../../http/public-origin.ts';
import { linkHolds, signLink } from '../../security/signed-links.ts';
import { voucherPdf } from './voucher-pdf.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
const LINK_PURPOSE = 'payment-voucher';
export const CONFIRMATION_PATH = '/v1/payments/epayco/confirmation';
export const RESPONSE_PATH = '/epaycoResponse';

const iso = (d: Date | string) => new Date(d).toISOString();
const PLATFORM_ROLE = 'platform';

type PromoRow = { id: number | string; platform: PromotionalCredit['platform']; amount: number | string; remaining: number | string; expires_at: Date | string; expired_at: Date | string | null; created_at: Date | string };
const toPromotion = (r: PromoRow, now: Date): PromotionalCredit => ({
  id: Number(r.id), platform: r.platform, amount: Number(r.amount), remaining: Number(r.remaining), expiresAt: iso(r.expires_at),
  expired: r.expired_at !== null || new Date(r.expires_at) <= now, createdAt: iso(r.created_at),
});

export function toPayment(r: PaymentRow): Payment {
  return {
    id: Number(r.id), kind: r.kind, date: iso(r.created_at), method: r.method, invoice: r.invoice, status: r.status,
    amount: Number(r.amount), tax: Number(r.tax), creditsMoved: Number(r.credits), currency: r.currency, reference: r.gateway_ref,
    bank: r.bank, transactionId: r.transaction_id, gateway: r.gateway, gatewayCode: r.gateway_code, gatewayText: r.gateway_text,
    clientName: r.client_name, documentType: r.document_type, document: r.document, ip: r.ip, paymentType: r.payment_type,
    cardNumber: r.card_last4 ? `**** ${r.card_last4}` : null, reversalOf: r.reversal_of === null ? null : Number(r.reversal_of),
    verificationId: r.verification_id, updatedAt: iso(r.updated_at),
  };
}

/**
 * Where the buyer comes back to: the console's origin as its worker posted it, when the browser's
 * own Origin header says the same (a page cannot forge it); else where this request came to.
 */
function returnOrigin(request: { headers: Record<string, string | string[] | undefined> }, posted: string | undefined, fallback: string): string {
  const origin = request.headers.origin;
  return posted && typeof origin === 'string' && posted === origin && /^https?:\/\/[^/\s]+$/.test(posted) ? posted : fallback;
}

export const paymentsHandlers: DomainHandlers<'payments'> = {
  'payments.create': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    if (!purchasable(ctx.body.amount)) throw failFields([fieldError('amount', '99902')]);
    const company = await db.selectFrom('companies').select(['plan_type']).where('id', '=', me.companyId).executeTakeFirstOrThrow();
    // A subscription plan's sending is bounded by its quota, not bought by the credit.
    if (company.plan_type === 'subscription') throw fail('99982');
    const user = await db.selectFrom('users').select(['full_name', 'email']).where('id', '=', me.userId).executeTakeFirst();
    const now = ctx.deps.now();
    const quote = quotePurchase(ctx.body.amount);
    const order = await db.transaction().execute(async (trx) => {
      const row = await createPurchase(trx, { companyId: me.companyId, quote, gateway: 'epayco', createdBy: me.userId, ip: ctx.request.ip ?? null, clientName: user?.full_name ?? null, now });
      await createJob(trx, 'paymentFollowUp', { paymentId: Number(row.id), companyId: me.companyId }, now);
      return row;
    });
    ctx.deps.messaging.wakeJobs?.();
    const origin = requestOrigin(ctx.request);
    try {
      const session = await ctx.deps.payments.createCheckout({
        reference: order.invoice, amountCop: quote.amount, taxCop: quote.tax, description: `Créditos Colibri (${quote.credits.toLocaleString('es-CO')})`,
        responseUrl: `${returnOrigin(ctx.request, ctx.body.returnOrigin, origin)}${RESPONSE_PATH}?invoice=${encodeURIComponent(order.invoice)}`,
        confirmationUrl: `${origin}${CONFIRMATION_PATH}`,
        buyer: { name: user?.full_name ?? '', email: user?.email ?? '', ip: ctx.request.ip ?? '' },
      });
      await attachCheckoutSession(db, Number(order.id), session.sessionId, now);
      return { payment: toPayment(order), checkout: { sessionId: session.sessionId, url: session.checkoutUrl, script: session.script } };
    } catch (error) {
      if (!(error instanceof PaymentGatewayError)) throw error;
      // No checkout was opened: nothing can be paid on this order.
      await abandonPayment(db, Number(order.id), now);
      ctx.request.log.warn({ invoice: order.invoice, error: error.message }, 'payment gateway refused the checkout');
      throw fail('99900');
    }
  },

  'payments.list': async (ctx) => {
    const me = caller(ctx);
    const f = ctx.query;
    const problem = dateRangeProblem({ start: f.dateStart, end: f.dateEnd }, calendarDate(ctx.deps.now(), TIME_ZONE));
    if (problem === 'endBeforeStart') throw fail('99958');
    let qb = ctx.deps.db.selectFrom('payments as p').selectAll('p').where('p.company_id', '=', me.companyId);
    if (f.status) qb = qb.where('p.status', '=', f.status);
    if (f.kind) qb = qb.where('p.kind', '=', f.kind);
    if (f.dateStart) qb = qb.where('p.created_at', '>=', dayStart(f.dateStart, TIME_ZONE));
    if (f.dateEnd) qb = qb.where('p.created_at', '<', dayAfter(f.dateEnd, TIME_ZONE));
    return paginate(qb, f, {
      sortable: { date: 'p.created_at', amount: 'p.amount', status: 'p.status' },
      defaultSort: { column: 'p.created_at', order: 'desc' },
      tieBreaker: 'p.id',
      search: ['p.invoice', 'p.gateway_ref', 'p.transaction_id'],
      map: toPayment,
    });
  },

  'payments.ledger': async (ctx) => {
    const me = caller(ctx);
    const f = ctx.query;
    const problem = dateRangeProblem({ start: f.dateStart, end: f.dateEnd }, calendarDate(ctx.deps.now(), TIME_ZONE));
    if (problem === 'endBeforeStart') throw fail('99958');
    let qb = ctx.deps.db.selectFrom('credit_ledger as l').leftJoin('deployments as d', 'd.id', 'l.deployment_id').leftJoin('campaigns as c', 'c.id', 'd.campaign_id')
      .select(['l.id', 'l.created_at', 'l.kind', 'l.amount', 'l.balance_after', 'l.reserved_after', 'l.deployment_id', 'l.message_count', 'l.reference', 'c.name as campaign_name'])
      .where('l.company_id', '=', me.companyId);
    if (f.kind) qb = qb.where('l.kind', '=', f.kind);
    if (f.dateStart) qb = qb.where('l.created_at', '>=', dayStart(f.dateStart, TIME_ZONE));
    if (f.dateEnd) qb = qb.where('l.created_at', '<', dayAfter(f.dateEnd, TIME_ZONE));
    return paginate(qb, f, {
      sortable: { at: 'l.created_at' },
      defaultSort: { column: 'l.created_at', order: 'desc' },
      tieBreaker: 'l.id',
      search: ['l.reference'],
      map: (r) => ({
        id: Number(r.id), at: r.created_at.toISOString(), kind: r.kind as CreditMovement,
        // What it did to the balance, by the movement's own sign (credit-movement.yaml balanceSign).
        credits: creditMovementMeta[r.kind as CreditMovement].balanceSign * Number(r.amount),
        balanceAfter: Number(r.balance_after), reservedAfter: Number(r.reserved_after),
        deploymentId: r.deployment_id === null ? null : Number(r.deployment_id), campaignName: r.campaign_name ?? null,
        messageCount: r.message_count, reference: r.reference,
      }),
    });
  },

  'payments.get': async (ctx) => {
    const row = await ctx.deps.db.selectFrom('payments').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', caller(ctx).companyId).executeTakeFirst();
    if (!row) throw fail('99959');
    return toPayment(row);
  },

  'payments.byInvoice': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const find = () => db.selectFrom('payments').selectAll().where('invoice', '=', ctx.params.invoice).where('company_id', '=', me.companyId).executeTakeFirst();
    const row = await find();
    if (!row) throw fail('99959');
    const ref = ctx.query.ref_payco;
    if (row.status !== 'pending' || !ref) return toPayment(row);
    try {
      // The gateway's answer counts for this order only (the reference came from an address anyone can edit).
      await confirmByGateway(db, ctx.deps.payments, { gatewayRef: ref, invoice: row.invoice }, ctx.deps.now());
    } catch (error) {
      ctx.request.log.warn({ invoice: row.invoice, error: (error as Error).message }, 'validation by reference failed; the confirmation or the follow-up will tell');
    }
    return toPayment((await find()) ?? row);
  },

  'payments.voucherLink': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.selectFrom('payments').select(['id', 'status', 'kind']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!row || row.kind !== 'purchase' || !CREDITED.includes(row.status)) throw fail('99959');
    const link = signLink(ctx.deps.secrets, LINK_PURPOSE, `${row.id}.${me.companyId}`, ctx.deps.now(), constants.reports.downloadLinkMinutes);
    return { url: `/v1/payments/${row.id}/voucher?expires=${link.expires}&signature=${link.signature}`, expiresAt: link.expiresAt };
  },

  'payments.voucher': async (ctx) => {
    const { db } = ctx.deps;
    const row = await db.selectFrom('payments').selectAll().where('id', '=', ctx.params.id).executeTakeFirst();
    // One answer for a voucher that is not there and a link that is wrong.
    if (!row || !linkHolds(ctx.deps.secrets, LINK_PURPOSE, `${row.id}.${row.company_id}`, ctx.query.expires, ctx.query.signature, ctx.deps.now())) throw fail('99982');
    if (!CREDITED.includes(row.status) || !row.credited_at) throw fail('99982');
    const company = await db.selectFrom('companies').select(['name', 'nit', 'address']).where('id', '=', row.company_id).executeTakeFirstOrThrow();
    const p = toPayment(row);
    const bytes = await voucherPdf({
      company: { name: company.name, nit: company.nit, address: company.address },
      payment: { ...p, credits: p.creditsMoved, date: new Date(row.created_at), confirmedAt: new Date(row.credited_at) },
    });
    ctx.reply.header('content-disposition', `attachment; filename="comprobante-${row.invoice}.pdf"`);
    return { contentType: 'application/pdf', bytes };
  },

  'payments.promotions': async (ctx) => {
    const rows = await ctx.deps.db.selectFrom('promo_credits').selectAll().where('company_id', '=', caller(ctx).companyId).orderBy('id', 'desc').limit(500).execute();
    return rows.map((r) => toPromotion(r, ctx.deps.now()));
  },

  'payments.grantPromotional': async (ctx) => {
    const me = caller(ctx);
    if (!me.roles.includes(PLATFORM_ROLE)) throw fail('99982');
    const { db } = ctx.deps;
    const now = ctx.deps.now();
    if (ctx.body.expiresOn <= calendarDate(now, TIME_ZONE)) throw failFields([fieldError('expiresOn', '99962')]);
    const company = await db.selectFrom('companies').select('id').where('id', '=', ctx.params.id).executeTakeFirst();
    if (!company) throw fail('99959');
    // Until the end of that Bogotá day.
    const expiresAt = dayAfter(ctx.body.expiresOn, TIME_ZONE);
    const row = await db.transaction().execute(async (trx) => {
      await grantPromotional(trx, { companyId: company.id, platform: ctx.body.platform, amount: ctx.body.amount, expiresAt, createdBy: me.userId, now });
      return trx.selectFrom('promo_credits').selectAll().where('company_id', '=', company.id).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    });
    return toPromotion(row, now);
  },
};
