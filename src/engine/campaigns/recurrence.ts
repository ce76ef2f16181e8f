// Recurring campaigns (spec 3: every N days/weeks/months/years, starts, ends, expires): when a
// campaign's next run is due, a deployment is launched from its current recipients file, as its
// author, and the next run is computed from the rule (src/core/recurrence.ts, Bogota wall time,
// anchored on the start so Jan 31 → Feb 28 → Mar 31). A run that cannot launch (no credits, no
// recipients, channel disabled) is skipped with its reason and the schedule goes on. Campaigns are
// claimed with SKIP LOCKED, so several server processes never launch the same run twice.
import { sql } from 'kysely';
import { nextRun, nextRuns, type RecurrenceRule, type RecurrenceUnit } from '../../core/recurrence.ts';
import type { CampaignRecurrence } from '../../generated/types.gen.ts';
import type { CampaignDeps } from './deps.ts';
import { launchCampaign } from './launch.ts';

const UNITS: Record<CampaignRecurrence['unit'], RecurrenceUnit> = { days: 'day', weeks: 'week', months: 'month', years: 'year' };

function ruleOf(r: CampaignRecurrence): RecurrenceRule {
  return { every: r.every, unit: UNITS[r.unit], starts: r.starts, ends: r.ends ?? undefined, expires: r.expires ?? undefined };
}

/**
 * The run the scheduler waits for under `recurrence` as it stands at `now`: the rule's first run at
 * or after now (its start, when that is ahead), null once the rule has ended or expired. Written
 * when the campaign is created and whenever its kind or rule changes.
 */
export function firstRunFrom(recurrence: CampaignRecurrence, now: Date): Date | null {
  return nextRun(ruleOf(recurrence), new Date(now.getTime() - 1));
}

/**
 * The campaign's next `count` runs as the scheduler will launch them: its stored next run, then
 * the rule's (none once the rule has ended or expired).
 */
export function upcomingRuns(recurrence: CampaignRecurrence, nextRunAt: Date | null, count: number): Date[] {
  if (!nextRunAt || count < 1) return [];
  return [nextRunAt, ...nextRuns(ruleOf(recurrence), nextRunAt, count - 1)];
}

/** Launches the recurring campaigns that are due; answers how many runs it launched. */
export async function runDueCampaigns(deps: CampaignDeps, log: (m: string, d?: unknown) => void = () => {}): Promise<number> {
  const db = deps.db;
  const now = deps.now();
  let launched = 0;
  for (;;) {
    // One campaign per transaction: its next_run_at moves on before the launch, so a crash
    // mid-launch skips that run rather than repeating it.
    const due = await db.transaction().execute(async (trx) => {
      const row = await sql<{ id: number; company_id: number; created_by: number | null; recurrence: CampaignRecurrence; next_run_at: Date }>`
        select id, company_id, created_by, recurrence, next_run_at from campaigns
        where kind = 'recurring' and label = 'Active' and next_run_at is not null and next_run_at <= ${now}
        order by next_run_at limit 1 for update skip locked`.execute(trx);
      const campaign = row.rows[0];
      if (!campaign) return null;
      const next = nextRun(ruleOf(campaign.recurrence), new Date(Math.max(now.getTime(), new Date(campaign.next_run_at).getTime())));
      await sql`update campaigns set next_run_at = ${next}, updated_at = ${now} where id = ${campaign.id}`.execute(trx);
      return { ...campaign, last: next === null };
    });
    if (!due) return launched;
    if (!due.created_by) {
      log(`recurring campaign ${due.id}: its author is gone, run skipped`);
      continue;
    }
    try {
      // As its author, within the author's company: the launch checks the campaign, not a permission of a request.
      await launchCampaign(deps, { userId: due.created_by, companyId: due.company_id }, due.id);
      launched++;
    } catch (error) {
      log(`recurring campaign ${due.id}: run skipped`, (error as Error).message);
    }
    // The last run of the rule: the campaign has done its work.
    if (due.last) await sql`update campaigns set label = 'Executed', updated_at = ${now} where id = ${due.id} and label = 'Active'`.execute(db);
  }
}
