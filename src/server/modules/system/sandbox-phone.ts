// The sandbox's phone (GET /v1/sandbox/phone): one number's SMS and WhatsApp conversation with the
// companies, as the handset shows it — what it received (with where each message stands) and what
// it wrote in — and the two-way channels it may answer to through the sandbox's inbound door.
import type { Kysely } from 'kysely';
import { render } from '../../../core/message-content.ts';
import { normalizeColombianPhone, numberForms } from '../../../core/phone.ts';
import type { Database } from '../../../engine/database.ts';
import type { ChannelPlatform, DeliveryStatus, MessageState } from '../../../generated/enums.gen.ts';
import type { SandboxPhone } from '../../../generated/types.gen.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';

const LINES = 100;
const PLATFORMS = ['sms', 'whatsapp'] as const;

type TemplateRef = { name?: unknown; language?: unknown; parameters?: unknown };

/** A WhatsApp template as the handset reads it: its text with its values, else its name. */
async function templateText(db: Kysely<Database>, companyId: number, ref: TemplateRef): Promise<string> {
  const name = typeof ref.name === 'string' ? ref.name : '';
  const row = await db.selectFrom('templates').select(['content', 'variables']).where('company_id', '=', companyId)
    .where('channel', '=', 'whatsapp').where('name', '=', name).$if(typeof ref.language === 'string', (q) => q.where('language', '=', ref.language as string))
    .executeTakeFirst();
  if (!row) return name;
  const params = ref.parameters;
  const values: Record<string, string> = Array.isArray(params)
    ? Object.fromEntries((row.variables as string[]).map((v, i) => [v, String(params[i] ?? '')]))
    : (params && typeof params === 'object' ? (params as Record<string, string>) : {});
  try {
    return render(row.content, values, { allowEmpty: true });
  } catch {
    return row.content;
  }
}

export async function sandboxPhone(db: Kysely<Database>, input: string, company: number | null): Promise<SandboxPhone> {
  const number = normalizeColombianPhone(input);
  if (!number) throw failFields([fieldError('number', '99963')]);
  const forms = numberForms(number);
  const sent = await db.selectFrom('messages as m').innerJoin('channels as c', 'c.id', 'm.channel_id')
    .select(['m.id', 'm.company_id', 'm.channel_id', 'c.name', 'c.platform', 'm.body', 'm.template', 'm.created_at', 'm.state', 'm.delivery_status'])
    .where('m.to_number', 'in', forms).where('c.platform', 'in', PLATFORMS).$if(company !== null, (q) => q.where('m.company_id', '=', company!))
    .orderBy('m.id', 'desc').limit(LINES).execute();
  const wrote = await db.selectFrom('inbound_messages as i').innerJoin('channels as c', 'c.id', 'i.channel_id')
    .select(['i.id', 'i.channel_id', 'c.name', 'c.platform', 'i.body', 'i.received_at'])
    .where('i.from_number', 'in', forms).where('c.platform', 'in', PLATFORMS).$if(company !== null, (q) => q.where('i.company_id', '=', company!))
    .orderBy('i.id', 'desc').limit(LINES).execute();
  const lines: SandboxPhone['lines'] = [];
  for (const m of sent) {
    const text = m.body ?? (m.template ? await templateText(db, m.company_id, m.template as TemplateRef) : '');
    lines.push({
      id: `out-${m.id}`, direction: 'out', platform: m.platform as ChannelPlatform, channelId: m.channel_id, channel: m.name, text,
      at: new Date(m.created_at).toISOString(), state: m.state as MessageState, deliveryStatus: (m.delivery_status ?? null) as DeliveryStatus | null,
    });
  }
  for (const i of wrote) {
    lines.push({ id: `in-${i.id}`, direction: 'in', platform: i.platform as ChannelPlatform, channelId: i.channel_id, channel: i.name, text: i.body, at: new Date(i.received_at).toISOString(), state: null, deliveryStatus: null });
  }
  lines.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  // Two-way: an SMS channel that receives (MO), or a WhatsApp number.
  const channels = await db.selectFrom('channels').select(['id', 'name', 'platform']).where('enabled', '=', true)
    .where((eb) => eb.or([eb.and([eb('platform', '=', 'sms'), eb('type', '=', 'MO')]), eb('platform', '=', 'whatsapp')]))
    .$if(company !== null, (q) => q.where('company_id', '=', company!)).orderBy('id').execute();
  return { number, lines: lines.slice(-LINES), channels: channels.map((c) => ({ id: c.id, name: c.name, platform: c.platform as ChannelPlatform })) };
}
