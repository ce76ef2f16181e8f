// The templates module's way to Meta: create, edit and delete a WhatsApp template through one of
// the company's WhatsApp channels (its business account and token). In the running engine the
// channel talks to whatever its adapter talks to (its own baseUrl, production's Graph, or in
// sandbox mode the Graph stand-in, which then answers on our real webhook route).
import type { TemplateCallResult, TemplateDraft } from '../../engine/channels/whatsapp/index.ts';
import { createWhatsAppTemplate, deleteWhatsAppTemplate, editWhatsAppTemplate } from '../../engine/channels/whatsapp/index.ts';
import { whatsappGraphAccount, type ChannelRow, type HttpChannelContext } from './http-channels.ts';

export interface WhatsAppTemplateGateway {
  submit(channelId: number, draft: TemplateDraft): Promise<TemplateCallResult>;
  edit(channelId: number, templateId: string, draft: TemplateDraft): Promise<TemplateCallResult>;
  remove(channelId: number, templateId: string, name: string): Promise<TemplateCallResult>;
}

export function whatsappTemplateGateway(context: HttpChannelContext, options: { timeoutMs?: number } = {}): WhatsAppTemplateGateway {
  async function withAccount(channelId: number, call: (account: NonNullable<ReturnType<typeof whatsappGraphAccount>>) => Promise<TemplateCallResult>): Promise<TemplateCallResult> {
    const channel = await context.db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
    const account = channel ? whatsappGraphAccount(context, channel as ChannelRow) : null;
    if (!account) return { ok: false, kind: 'unauthorized', reason: `channel ${channelId} lacks its WhatsApp token or business account id` };
    return call(account);
  }
  return {
    submit: (channelId, draft) => withAccount(channelId, (a) => createWhatsAppTemplate(a, draft, options.timeoutMs)),
    edit: (channelId, templateId, draft) => withAccount(channelId, (a) => editWhatsAppTemplate(a, templateId, draft, options.timeoutMs)),
    remove: (channelId, templateId, name) => withAccount(channelId, (a) => deleteWhatsAppTemplate(a, templateId, name, options.timeoutMs)),
  };
}
