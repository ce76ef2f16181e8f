// A campaign's test send (POST /v1/campaigns/{id}/tests). The message is rendered with the first
// sendable row's values (the variables' names in brackets before there is a file) and goes through
// the one send step like a launch: credits reserved, block list and duplicates applied, the
// campaign's purpose kept. Two things differ, on purpose: a test belongs to no deployment (so the
// campaign's deployments and statistics never count it; messages.test_campaign_id says which
// campaign it tested), and its source `test` is not held by the send window
// (lifecycle/enqueue.ts heldBySendWindow).
import { render, variablesOf } from '../../core/message-content.ts';
import { splitPastedNumbers } from '../../core/phone-list.ts';
import { constants } from '../../generated/constants.gen.ts';
import type { CampaignTestResult } from '../../generated/types.gen.ts';
import { reachOf } from '../channels/index.ts';
import { InsufficientCreditsError, type Purpose } from '../lifecycle/index.ts';
import { judgePhone } from '../recipients/index.ts';
import { refuse, Refused } from '../refused.ts';
import type { Caller, CampaignDeps } from './deps.ts';
import { channelOf, LAUNCHABLE_LABELS, loadCampaign } from './launch-plan.ts';
import { sendMessages } from './send.ts';

/** The test's numbers in E.164, each once, judged as a file's phone cell is (99905, 99963). */
function testNumbers(text: string, allowFixedLines: boolean): string[] {
  const written = splitPastedNumbers(text);
  const max = constants.uploads.campaignTestNumbers;
  if (written.length === 0 || written.length > max) throw new Refused('99905', `${written.length} numbers read`, 'phones');
  const phones: string[] = [];
  for (const value of written) {
    const judged = judgePhone(value, allowFixedLines);
    if (!judged.phone) throw new Refused('99963', value.slice(0, 40), 'phones');
    if (!phones.includes(judged.phone)) phones.push(judged.phone);
  }
  return phones;
}

/** The text a test sends: the first sendable row's values, or each variable's name in brackets. */
async function testBody(deps: Pick<CampaignDeps, 'db'>, content: string, fileId: number | null): Promise<string> {
  const first = fileId
    ? await deps.db.selectFrom('recipient_rows').select('variables').where('file_id', '=', fileId).where('send', '=', true)
      .where('phone', 'is not', null).orderBy('row_no').limit(1).executeTakeFirst()
    : undefined;
  const values = first?.variables ?? Object.fromEntries(variablesOf(content).map((name) => [name, `[${name}]`]));
  return render(content, values, { allowEmpty: true });
}

export async function sendCampaignTest(deps: CampaignDeps, me: Caller, campaignId: number, phonesText: string): Promise<CampaignTestResult> {
  const campaign = await loadCampaign(deps, me, campaignId);
  if (!LAUNCHABLE_LABELS.includes(campaign.label)) throw refuse('99984');
  const channel = await channelOf(deps, campaign);
  // Fixed lines only where the channel type reaches them, as for the file's rows.
  const phones = testNumbers(phonesText, reachOf(channel.platform) !== 'mobile');
  const body = await testBody(deps, campaign.content, campaign.recipients_file_id);
  const now = deps.now();
  try {
    const result = await sendMessages(deps, {
      companyId: me.companyId, channel, purpose: campaign.purpose as Purpose, source: 'test', testCampaignId: campaign.id, createdBy: me.userId, now, onInsufficientCredits: 'throw',
    }, (_trx, enqueue) => enqueue(phones.map((to) => ({ to, body }))));
    deps.messaging.wake();
    const refused = Object.values(result.rejected).reduce((sum, n) => sum + n, 0);
    return { body, numbers: phones.join(', '), queued: result.ids.length - refused, refused, credits: result.reservedCredits };
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw refuse('99986');
    throw error;
  }
}
