// The templates module's way to Meta: create, edit and delete a WhatsApp template through one of
// the company's WhatsApp channels (its business account and token). In the running engine the
// channel talks to whatever its adapter talks to (its own baseUrl, production's Graph, or in
// sandbox mode the Graph stand-in, which then answers on our real webhook route).
import {
  createWhatsAppTemplate, deleteWhatsAppTemplate, editWhatsAppTemplate, whatsappGraphAccount, type TemplateCallResult, type ChannelContext,
} from '../../engine/channels/index.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/database.ts';
import { endpointOf } from '../modules/channels/records.ts';
import type { SecretBox } from '../security/secrets.ts';
import type { WhatsAppTemplateGateway } from '../context.ts';

export interface TemplateGatewayDeps {
  db: Kysely<Database>;
  secrets: SecretBox;
  /** Where the channel definitions find the stand-ins (sandbox mode) and our URL. */
  context: ChannelContext;
}

export function whatsappTemplateGateway(deps: TemplateGatewayDeps, options: { timeoutMs?: number } = {}): WhatsAppTemplateGateway {
  async function withAccount(channelId: number, call: (account: NonNullable<ReturnType<typeof whatsappGraphAccount>>) => Promise<TemplateCallResult>): Promise<TemplateCallResult> {
    const channel = await deps.db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
    const account = channel ? whatsappGraphAccount(endpointOf(deps.secrets, channel), deps.context) : null;
    if (!account) return { ok: false, kind: 'unauthorized', reason: `channel ${channelId} lacks its WhatsApp token or business account id` };
    return call(account);
  }
  return {
    submit: (channelId, draft) => withAccount(channelId, (a) => createWhatsAppTemplate(a, draft, options.timeoutMs)),
    edit: (channelId, templateId, draft) => withAccount(channelId, (a) => editWhatsAppTemplate(a, templateId, draft, options.timeoutMs)),
    remove: (channelId, templateId, name) => withAccount(channelId, (a) => deleteWhatsAppTemplate(a, templateId, name, options.timeoutMs)),
  };
}
