// Demo templates (called by seedMessagingDemo, inside the seed's transaction): Demo S.A.S. has an
// SMS payment reminder, a commercial SMS and its WhatsApp notice `colibri_aviso` (es_CO),
// approved at Meta — the Graph stand-in knows it under the same id, so campaigns and the API can
// send it; another company has one SMS template of its own (companies never see each other's).
import type { Transaction } from 'kysely';
import { variablesOf } from '../../core/message-content.ts';
import { DEMO_WHATSAPP_TEMPLATES } from '../../core/demo-whatsapp-templates.ts';
import type { Database } from '../../engine/database.ts';

export async function seedTemplates(trx: Transaction<Database>, companies: { demoCompanyId: number; otherCompanyIds: number[] }, now: Date): Promise<void> {
  const whatsapp = await trx.selectFrom('channels').select('id').where('company_id', '=', companies.demoCompanyId).where('platform', '=', 'whatsapp').orderBy('id').executeTakeFirst();
  const aviso = DEMO_WHATSAPP_TEMPLATES.find((t) => t.name === 'colibri_aviso' && t.language === 'es_CO')!;
  const row = (companyId: number, name: string, channel: string, purpose: string, content: string) => ({
    company_id: companyId, name, channel, purpose, content, variables: JSON.stringify(variablesOf(content)), category: null, language: null, channel_id: null,
    status: 'APPROVED', rejection_reason: null, provider_template_id: null, status_at: now, submitted_at: null, created_by: null, created_at: now, updated_at: now,
  });
  await trx.insertInto('templates').values([
    row(companies.demoCompanyId, 'recordatorio_pago', 'sms', 'transactional', 'Hola {{nombre}}, tu factura {{factura}} vence el {{fecha}}. Paga en linea y evita recargos.'),
    row(companies.demoCompanyId, 'promo_fin_de_semana', 'sms', 'commercial', 'Este fin de semana 20% de descuento en toda la tienda, {{nombre}}. Responde SALIR para no recibir mas mensajes.'),
    ...(whatsapp ? [{
      ...row(companies.demoCompanyId, aviso.name, 'whatsapp', 'transactional', 'Hola {{1}}, tu pedido {{2}} va en camino. Gracias por comprar con nosotros.'),
      category: aviso.category, language: aviso.language, channel_id: whatsapp.id, provider_template_id: aviso.id, submitted_at: now,
    }] : []),
    ...companies.otherCompanyIds.map((id) => row(id, 'despacho_en_ruta', 'sms', 'transactional', 'Su despacho {{guia}} va en ruta. Andina Logistica.')),
  ]).execute();
}
