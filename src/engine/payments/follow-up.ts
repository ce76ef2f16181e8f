// The follow-up of a pending purchase (ARCHITECTURE 5 "payment follow-ups"), a job so it
// survives restarts and runs once across processes. The confirmation webhook is the normal path;
// this is for the one that never comes (the gateway could not reach us, the buyer closed the
// tab): every `intervalMs` the order is validated by reference with the gateway (when we know its
// reference), and the gateway's word is applied by the one owner of payment states. An order the
// gateway never heard of is given up (abandoned) after `abandonAfterMs`; one the gateway says is
// still pending (a PSE transfer waiting on the bank) is followed for `pendingForMs` first. A late
// approval after that still adds its credits (payments.ts: an abandoned order moves on a verdict).
import type { Kysely } from 'kysely';
import type { PaymentGateway } from '../../core/ports/payment.ts';
import type { Database } from '../database.ts';
import type { JobHandler } from '../jobs/kinds.ts';
import { finishJob, postponeJob } from '../lifecycle/jobs.ts';
import { confirmByGateway } from './confirmed.ts';
import { abandonPayment } from './payments.ts';

export interface PaymentFollowUpDeps {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  now: () => Date;
  /** Between checks; default 60 s. */
  intervalMs?: number;
  /** Given up when the gateway never named it; default 1 h (a checkout session does not outlive it). */
  abandonAfterMs?: number;
  /** Given up when the gateway keeps saying pending; default 24 h. */
  pendingForMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

export function paymentFollowUpStep(deps: PaymentFollowUpDeps): JobHandler<'paymentFollowUp'> {
  const intervalMs = deps.intervalMs ?? 60_000;
  const abandonAfterMs = deps.abandonAfterMs ?? 3_600_000;
  const pendingForMs = deps.pendingForMs ?? 86_400_000;
  const read = (id: number) => deps.db.selectFrom('payments').select(['id', 'invoice', 'status', 'gateway_ref', 'gateway_code', 'created_at']).where('id', '=', id).executeTakeFirst();
  return async (job) => {
    let order = await read(job.payload.paymentId);
    if (order?.status === 'pending' && order.gateway_ref) {
      try {
        await confirmByGateway(deps.db, deps.gateway, { gatewayRef: order.gateway_ref, invoice: order.invoice }, deps.now());
      } catch (error) {
        deps.log?.(`payment ${order.invoice}: validation by reference failed`, (error as Error).message);
      }
      order = await read(job.payload.paymentId);
    }
    const now = deps.now();
    if (!order || order.status !== 'pending') {
      await finishJob(deps.db, job.id, now);
      return 'done';
    }
    const age = now.getTime() - new Date(order.created_at).getTime();
    if (age >= (order.gateway_code === null ? abandonAfterMs : pendingForMs)) {
      await abandonPayment(deps.db, Number(order.id), now);
      await finishJob(deps.db, job.id, now);
      return 'done';
    }
    await postponeJob(deps.db, job.id, job.cursor + 1, new Date(now.getTime() + intervalMs), now);
    return 'later';
  };
}
