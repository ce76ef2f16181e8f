// The conversations of an engine process (ARCHITECTURE 2 `conversations/`): a person's message in
// (inbound.ts), the no-reply timers (timers.ts, polled here), and the integration calls
// (integration.ts, a job kind the job runner runs). One FlowVersions memory per process.
// The server's way in; engine code imports the modules themselves.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';
import { receiveText, type InboundText, type Received } from './inbound.ts';
import { nextTimerAt } from './sessions.ts';
import { fireDueTimers } from './timers.ts';
import { flowVersions, type FlowVersions } from './versions.ts';

export { flowVersions } from './versions.ts';
export { flowCallStep } from './integration.ts';
export type { IntegrationCaller } from './integration.ts';
export { OPEN_STATES } from './sessions.ts';
export { clearTraining, storeTrainingFile, trainedMeanings } from './training.ts';
export { startCampaignConversations } from './campaigns.ts';

/** Due timers fired in one transaction (their turns taken together). */
export const TIMER_BATCH = 1000;
/** Transactions of due timers fired side by side. */
const TIMER_ROUNDS = 2;
const MIN_SLEEP_MS = 20;

export interface ConversationsOptions {
  db: Kysely<Database>;
  now?: () => Date;
  /** Messages were enqueued (the dispatcher). */
  wake: () => void;
  /** An integration call was queued (the job runner, when this process runs one). */
  wakeJobs?: () => void;
  /** How often due timers are looked for at most; default 250 ms. Between looks the poller sleeps until the earliest timer, so one fires on time. */
  pollMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

export interface Conversations {
  versions: FlowVersions;
  /**
   * A message in, in its own transaction; null: no conversation took it (or `inTransaction.store`
   * said it was a replay). The inbound router stores the message's row in the same transaction
   * (`store`, first) and marks it taken there (`taken`): one commit for the message and its turn.
   */
  receive(m: InboundText, inTransaction?: InboundHooks): Promise<Received>;
  /** Fires the due timers now (tests); answers how many fired. */
  fireTimers(): Promise<number>;
  /** Starts polling the timers. */
  start(): void;
  stop(): Promise<void>;
}

/** What the inbound router does in the turn's transaction (routeInbound). */
export interface InboundHooks {
  /** Stores the message's row; false: it was stored before (a provider's replay), nothing more happens. */
  store(trx: Transaction<Database>): Promise<boolean>;
  /** A conversation took it. */
  taken(trx: Transaction<Database>): Promise<void>;
}

export function startConversations(options: ConversationsOptions): Conversations {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const versions = flowVersions();
  const pollMs = options.pollMs ?? 250;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<number> | null = null;
  let stopped = true;

  const afterTurn = (sent: number, called: boolean) => {
    if (sent) options.wake();
    if (called) options.wakeJobs?.();
  };

  async function fireAll(): Promise<number> {
    let total = 0;
    for (;;) {
      // Rounds side by side take different rows (SKIP LOCKED); on PGlite's one connection they take turns.
      const rounds = await Promise.all(Array.from({ length: TIMER_ROUNDS }, () => fireDueTimers(db, versions, now(), TIMER_BATCH)));
      for (const r of rounds) {
        afterTurn(r.sent, r.called);
        total += r.fired;
      }
      if (rounds.every((r) => r.fired < TIMER_BATCH) || stopped) return total;
    }
  }
  const fireTimers = () => (round ??= fireAll().finally(() => { round = null; }));

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      fireTimers()
        // The next look: when the earliest timer falls due, at most pollMs away (a turn may set an
        // earlier one meanwhile); never sooner than MIN_SLEEP_MS (a due row another turn holds is
        // skipped, and must not make this a busy loop).
        .then(() => nextTimerAt(db))
        .then((next) => (next === null ? pollMs : Math.min(pollMs, Math.max(MIN_SLEEP_MS, next.getTime() - now().getTime()))))
        .catch((e: Error) => { options.log?.('conversations: timers failed, retried at the next poll', e.message); return pollMs; })
        .then(schedule);
    }, delay);
    timer.unref?.();
  };

  return {
    versions,
    async receive(m, inTransaction) {
      // Two messages of one number at once: the second waits for the first's row lock; if both
      // would open a conversation, the unique index refuses one, which then continues the other's.
      for (let attempt = 0; ; attempt++) {
        try {
          const received = await db.transaction().execute(async (trx) => {
            if (inTransaction && !(await inTransaction.store(trx))) return null;
            const taken = await receiveText(trx, versions, m);
            if (taken && inTransaction) await inTransaction.taken(trx);
            return taken;
          });
          if (received?.outcome) afterTurn(received.outcome.sent, received.outcome.called);
          return received;
        } catch (error) {
          if (attempt > 0 || (error as { code?: string }).code !== '23505') throw error;
        }
      }
    },
    fireTimers,
    start() {
      if (!stopped) return;
      stopped = false;
      // Timers that fell due while no process ran fire at once.
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round?.catch(() => 0);
    },
  };
}
