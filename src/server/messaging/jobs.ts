// The engine's jobs in this process: the handler of every kind of job
// (engine/jobs/kinds.ts: a kind left out here is a type error) and the runner that takes them,
// started beside the engine by `npm start` (app.ts) and by `npm run worker`. On PostgreSQL several
// processes share the jobs: each claims one with FOR UPDATE SKIP LOCKED and holds it by a lease it
// renews with every step; a process that dies lets its lease run out and another takes the job up
// at its cursor. PGlite is one process's database: its one runner takes every job.
import { randomBytes } from 'node:crypto';
import { flowCallStep, flowVersions } from '../../engine/conversations/index.ts';
import { paymentFollowUpStep } from '../../engine/payments/index.ts';
import { noPaymentGateway, type PaymentGateway } from '../../core/ports/payment.ts';
import { JobRunner, type JobHandlers, type JobRunnerOptions } from '../../engine/jobs/index.ts';
import { launchStep, type LaunchDeps } from '../../engine/campaigns/index.ts';
import { reportFileStep } from '../modules/reportCenter/report-files.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { integrationCaller } from './flow-calls.ts';
import { OutboundPolicy } from '../security/outbound-guard.ts';
import { numberFrom } from '../../core/settings-number.ts';

export const JOB_LEASE_MS = 60_000;

/**
 * What the jobs need: a launch the engine's hooks, a report file the file storage, a flow's
 * integration call whether it may reach private networks (the sandbox: a test server, the demo),
 * a payment's follow-up the gateway (without one it can only give pending orders up).
 */
export type JobDeps = LaunchDeps & { storage: FileStorage; /** Where flow integration calls may go (outbound-guard.ts); default public addresses only. */ outbound?: OutboundPolicy; payments?: PaymentGateway };

/** PAYMENT_FOLLOW_UP_MS (60 s), PAYMENT_ABANDON_AFTER_MS (1 h), PAYMENT_PENDING_FOR_MS (24 h): the follow-up's times. */
const msSetting = (name: string): number | undefined => numberFrom(process.env, name) || undefined;

export function jobHandlers(deps: JobDeps): JobHandlers {
  return {
    launch: launchStep(deps, { leaseMs: JOB_LEASE_MS }),
    reportFile: reportFileStep(deps, { leaseMs: JOB_LEASE_MS }),
    flowCall: flowCallStep({
      db: deps.db, versions: flowVersions(), call: integrationCaller({ outbound: deps.outbound ?? new OutboundPolicy({ sandbox: false }) }), now: deps.now, wake: () => deps.messaging.wake(),
      // FLOW_CALL_RETRY_MS: the first retry's delay of an integration call (default 2 s, ×4 after each failure).
      ...(process.env.FLOW_CALL_RETRY_MS ? { retryBaseMs: Math.max(1, Number(process.env.FLOW_CALL_RETRY_MS) || 2_000) } : {}),
    }),
    paymentFollowUp: paymentFollowUpStep({
      db: deps.db, gateway: deps.payments ?? noPaymentGateway, now: deps.now,
      intervalMs: msSetting('PAYMENT_FOLLOW_UP_MS'), abandonAfterMs: msSetting('PAYMENT_ABANDON_AFTER_MS'), pendingForMs: msSetting('PAYMENT_PENDING_FOR_MS'),
    }),
  };
}

export function startJobRunner(deps: JobDeps, options: Partial<Omit<JobRunnerOptions, 'db' | 'handlers'>> = {}): JobRunner {
  const runner = new JobRunner({
    db: deps.db, handlers: jobHandlers(deps), workerId: `jobs-${process.pid}-${randomBytes(3).toString('hex')}`, leaseMs: JOB_LEASE_MS, now: deps.now, ...options,
  });
  runner.start();
  return runner;
}
