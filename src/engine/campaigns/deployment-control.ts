// A deployment's actions (spec 4): play, pause, cancel, delete, and the batch rule for up to 10
// numbers. A processed deployment (completed or cancelled) cannot be changed (99984); while its
// launch is being written it can only be cancelled. The state changes themselves are the
// lifecycle's (lifecycle/deployments.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import {
  cancelDeployment, cancelNumbers, deleteDeployment, pauseDeployment, playDeployment, PROCESSED_DEPLOYMENT_STATES, rescheduleNumbers,
} from '../lifecycle/index.ts';
import { refuse } from '../refused.ts';

/** The company's deployment, or 99959. */
export async function loadDeployment(db: Kysely<Database>, companyId: number, id: number) {
  const row = await db.selectFrom('deployments').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw refuse('99959');
  return row;
}

export async function controlDeployment(db: Kysely<Database>, companyId: number, id: number, action: 'play' | 'pause' | 'cancel', now: Date): Promise<void> {
  const row = await loadDeployment(db, companyId, id);
  if (PROCESSED_DEPLOYMENT_STATES.includes(row.state)) throw refuse('99984');
  // While its launch is being written it can only be cancelled (the launch job then stops).
  if (row.state === 'preparing' && action !== 'cancel') throw refuse('99984');
  if (action === 'pause') {
    if (row.state !== 'paused') await pauseDeployment(db, id, now);
  } else if (action === 'play') await playDeployment(db, { id, state: row.state, startedAt: row.started_at }, now);
  else await cancelDeployment(db, companyId, id, now);
}

export async function removeDeployment(db: Kysely<Database>, companyId: number, id: number, now: Date): Promise<void> {
  const row = await loadDeployment(db, companyId, id);
  const sent = await db.selectFrom('messages').select('id').where('deployment_id', '=', id).where('billed', '=', true).limit(1).executeTakeFirst();
  if (sent || !['scheduled', 'cancelled', 'paused'].includes(row.state)) throw refuse('99984');
  await deleteDeployment(db, companyId, id, now);
}

export async function numbersAction(db: Kysely<Database>, companyId: number, id: number, action: 'cancel' | 'schedule', numbers: string[], at: Date | null, now: Date): Promise<number> {
  const row = await loadDeployment(db, companyId, id);
  if (PROCESSED_DEPLOYMENT_STATES.includes(row.state)) throw refuse('99984');
  if (action === 'cancel') return cancelNumbers(db, companyId, id, numbers, now);
  return rescheduleNumbers(db, id, numbers, at ?? now, now);
}
