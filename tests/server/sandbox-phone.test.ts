// The sandbox's phone (GET /v1/sandbox/phone) on PGlite and (with DATABASE_URL) PostgreSQL: one
// number's SMS and WhatsApp conversation, oldest first, found as people write the number, a
// WhatsApp template read as its text, the two-way channels it may answer to; a company user sees
// only their company's; the network needs a sandbox role; a number that is not Colombian 99963.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness } from './file-harness.ts';
import { demoCompanyId, otherCompany } from './messaging-fixtures.ts';
import { newChannel } from './report-fixtures.ts';

const h = fileHarness();
const PHONE = '+573001110003';
let company: number;
let sms: number;
let whatsapp: number;

async function message(companyId: number, channel: number, at: Date, body: string | null, template: unknown = null) {
  await h.db.insertInto('messages').values({
    company_id: companyId, channel_id: channel, source: 'api', purpose: 'transactional', to_number: PHONE, body, template: template ? JSON.stringify(template) : null,
    parts: 1, cost: 1, state: 'delivered', delivery_status: 'DELIVERED', status_code: 3, not_before: at, created_at: at, updated_at: at, billed: true, sent_at: at,
  } as never).execute();
}

beforeAll(async () => {
  company = await demoCompanyId(h);
  sms = await newChannel(h, company, 'SMS Teléfono', 'sms');
  whatsapp = await newChannel(h, company, 'WhatsApp Teléfono', 'whatsapp');
  const t0 = new Date(h.clock.now.getTime() - 3_600_000);
  await message(company, sms, t0, 'Colibri: su código es 4411');
  await h.db.insertInto('templates').values({
    company_id: company, name: 'pedido_listo', channel: 'whatsapp', purpose: 'transactional', content: 'Hola {{nombre}}, tu pedido {{pedido}} está listo.', variables: JSON.stringify(['nombre', 'pedido']),
    category: 'UTILITY', language: 'es_CO', status: 'APPROVED', created_at: t0, updated_at: t0,
  } as never).execute();
  await message(company, whatsapp, new Date(t0.getTime() + 60_000), null, { name: 'pedido_listo', language: 'es_CO', parameters: ['Ana', '4411'] });
  await h.db.insertInto('inbound_messages').values({
    company_id: company, channel_id: sms, from_number: PHONE, to_address: '85432', body: 'SALIR', keyword: null, action: null, provider_message_id: 'mo-1', received_at: new Date(t0.getTime() + 120_000),
  } as never).execute();
  // Another company's message to the same number.
  const other = await otherCompany(h, ['sms']);
  await message(other.companyId, await newChannel(h, other.companyId, 'Ajena', 'sms'), new Date(t0.getTime() + 30_000), 'Mensaje de otra empresa');
}, 180_000);

describe('the sandbox phone', () => {
  it("shows one number's conversation oldest first, found as people write it, a template as its text, and where to answer", async () => {
    const { token } = await h.as('superadmin');
    const res = await h.op('system.phone', { token, query: { number: '300 111 0003' } });
    expect(res.statusCode, res.body).toBe(200);
    const phone = res.json();
    expect(phone.number).toBe(PHONE);
    expect(phone.lines.map((l: { direction: string; platform: string; text: string }) => `${l.direction} ${l.platform}: ${l.text}`)).toEqual([
      'out sms: Colibri: su código es 4411',
      'out whatsapp: Hola Ana, tu pedido 4411 está listo.',
      'in sms: SALIR',
    ]);
    expect(phone.lines[0]).toMatchObject({ state: 'delivered', deliveryStatus: 'DELIVERED', channel: 'SMS Teléfono' });
    // The company's own two-way channels only: WhatsApp numbers and receiving (MO) SMS channels.
    const names = phone.channels.map((c: { name: string }) => c.name);
    expect(names).toContain('WhatsApp Teléfono');
    expect(names).not.toContain('Ajena');
    for (const c of phone.channels) expect(['sms', 'whatsapp']).toContain(c.platform);
  });

  it('from this machine without a session shows every company; from the network needs a sandbox role; a foreign number 99963', async () => {
    const all = (await h.op('system.phone', { query: { number: PHONE } })).json();
    expect(all.lines.map((l: { text: string }) => l.text)).toContain('Mensaje de otra empresa');
    const outside = await h.op('system.phone', { query: { number: PHONE }, remoteAddress: '203.0.113.7' });
    expect(outside.json().code).toBe('99953');
    const { token } = await h.as('superadmin');
    const foreign = await h.op('system.phone', { token, query: { number: '+1 202 555 0101' } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: '99963', errors: [{ field: 'number' }] });
  });
});
