// An integration step's HTTP call, run as a `flowCall` job so it survives restarts and
// never holds a conversation's row while it waits on the network. A transport failure (refused,
// timed out), a 429 or a 5xx is tried again with back-off (the job's cursor counts the attempts;
// lifecycle/jobs.ts postponeJob lets go of it until the next try); any other answer, or the last
// failure, goes to the conversation as its event in one transaction with the job's end. The
// runtime checks the expected status and assigns the variable; a failure becomes an incident the
// flow's screen lists, and the conversation leaves by the step's failure output: never a silent stop.
import type { Kysely } from 'kysely';
import type { FlowEvent } from '../../core/flows/runtime.ts';
import type { ChannelPlatform } from '../../generated/enums.gen.ts';
import type { Database } from '../database.ts';
import type { JobHandler, JobPayloads } from '../jobs/kinds.ts';
import { finishJob, lockJob, postponeJob } from '../lifecycle/jobs.ts';
import { lockConversation } from './sessions.ts';
import { notes } from './notes.ts';
import { recordIncident, takeTurn } from './turns.ts';
import type { FlowVersions } from './versions.ts';

export type FlowCallRequest = JobPayloads['flowCall']['request'];

/** Makes the call; answers any HTTP answer, throws (with a message worth keeping) when none came. */
export type IntegrationCaller = (request: FlowCallRequest) => Promise<{ status: number; body: unknown }>;

export interface FlowCallDeps {
  db: Kysely<Database>;
  versions: FlowVersions;
  call: IntegrationCaller;
  now: () => Date;
  /** After a turn that enqueued messages. */
  wake: () => void;
  /** Attempts in all (default 3), and the first retry's delay (default 2 s; then ×4 each time, at most 5 min). */
  maxAttempts?: number;
  retryBaseMs?: number;
}

const retryDelay = (baseMs: number, spent: number) => Math.min(300_000, baseMs * 4 ** Math.max(0, spent - 1));
const retryable = (status: number) => status === 429 || status >= 500;

export function flowCallStep(deps: FlowCallDeps): JobHandler<'flowCall'> {
  const maxAttempts = deps.maxAttempts ?? 3;
  const baseMs = deps.retryBaseMs ?? 2_000;
  return async (job) => {
    const { conversationId, stepId, request } = job.payload;
    const attempt = job.cursor + 1;
    let event: FlowEvent;
    let failure: { status: number } | { error: Error } | null = null;
    try {
      const answer = await deps.call(request);
      event = { kind: 'integrationAnswer', status: answer.status, body: answer.body };
      if (retryable(answer.status)) failure = { status: answer.status };
    } catch (error) {
      failure = { error: error as Error };
      event = { kind: 'integrationFailed', reason: `${request.method} ${request.url}: ${(error as Error).message}` };
    }
    const now = deps.now();
    if (failure && attempt < maxAttempts) {
      await postponeJob(deps.db, job.id, attempt, new Date(now.getTime() + retryDelay(baseMs, attempt)), now);
      return 'later';
    }
    const sent = await deps.db.transaction().execute(async (trx) => {
      if (!(await lockJob(trx, job.id))) return 0; // another process finished it
      await finishJob(trx, job.id, now);
      const c = await lockConversation(trx, conversationId);
      // The conversation moved on (stopped by SALIR, say): the answer has nobody to go to.
      if (!c || c.session.state !== 'waitingIntegration' || c.session.stepId !== stepId) return 0;
      const flow = await deps.versions(trx, c.flowId, c.flowVersion);
      const channel = await trx.selectFrom('channels').select(['id', 'platform']).where('id', '=', c.channelId).executeTakeFirst();
      if (!flow || !channel) return 0;
      const outcome = await takeTurn(trx, c, { id: channel.id, platform: channel.platform as ChannelPlatform }, flow, event, now);
      const failed = outcome.turn.effects.some((e) => e.kind === 'count' && e.event === 'integrationFailed');
      if (failed) {
        await recordIncident(trx, c, stepId, failure ? notes.integrationFailed(request, attempt, failure) : notes.integrationUnexpectedStatus(request, (event as { status: number }).status), now);
      }
      return outcome.sent;
    });
    if (sent) deps.wake();
    return 'done';
  };
}
