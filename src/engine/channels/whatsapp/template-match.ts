// Template matching (the spec's WhatsApp code 1005 is Gupshup's "template match failed: the user is
// inactive for session messages and the template did not match"): free text to a number whose
// 24-hour window is closed goes as the channel's approved template whose words it is, with the
// template's variables read from the text — so a chatbot's late reply or an API message that
// repeats an approved template still arrives. When the channel has approved templates and none
// reads as the text, the message fails with 1005 before Meta is asked; a channel without approved
// templates keeps Meta's own answer, 131047.
import type { Kysely } from 'kysely';
import { matchTemplateText } from '../../../core/whatsapp-template.ts';
import type { TemplateRef } from '../../channel-adapter.ts';
import type { Database } from '../../database.ts';

/** The spec's code for free text outside the window that no approved template reads as (config/errors.yaml). */
export const TEMPLATE_MISMATCH_CODE = '1005';

/**
 * Meta's answer to a template parameter left empty (131008, "Required parameter is missing"): in
 * production a charged failure. The engine refuses such a message before it goes
 * (lifecycle/refusal-rules.ts) with this code, so the person reads why.
 */
export const EMPTY_PARAMETER_CODE = '131008';

/** The template a closed window's free text goes as; 'mismatch' when the channel has approved templates and none fits; null when it has none. */
export type TemplateMatch = TemplateRef | 'mismatch' | null;

export async function templateForText(db: Kysely<Database>, channelId: number, text: string): Promise<TemplateMatch> {
  const templates = await db.selectFrom('templates').select(['name', 'language', 'content'])
    .where('channel', '=', 'whatsapp').where('channel_id', '=', channelId).where('status', '=', 'APPROVED')
    .orderBy('id').execute();
  if (!templates.length) return null;
  for (const t of templates) {
    const parameters = matchTemplateText(t.content, text);
    if (parameters) return { name: t.name, language: t.language ?? 'es', parameters };
  }
  return 'mismatch';
}
