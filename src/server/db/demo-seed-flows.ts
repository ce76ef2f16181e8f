// The demo company's chatbot: a published flow "Menú de atención" — a greeting, a menu
// of three options (each with its keyword), a balance read from a variable, an SMS to the sales
// team (SMX), and a goodbye — put on the WhatsApp and SMS two-way channels by the keyword MENU
// (keyword agents: a catch-all agent would answer every message the sandbox's other flows send).
// In the sandbox, `npm start` and writing MENU to either channel starts a conversation.
import type { Transaction } from 'kysely';
import { answerEdges } from '../../core/flows/build.ts';
import { validateFlow } from '../../core/flows/validate.ts';
import type { Database } from '../../engine/database.ts';
import type { FlowDefinition } from '../../generated/types.gen.ts';

export const DEMO_FLOW_NAME = 'Menú de atención';
export const DEMO_FLOW_KEYWORD = 'MENU';

export function demoFlow(): FlowDefinition {
  return {
    steps: [
      { id: 'inicio', type: 'initialCall', title: 'Saludo', position: { x: 0, y: 0 }, settings: { keywords: [DEMO_FLOW_KEYWORD], text: 'Hola, soy el asistente de Colibri Demo.' } },
      {
        id: 'menu', type: 'send', title: 'Menú', position: { x: 0, y: 160 },
        settings: {
          text: '¿En qué te ayudo? Responde 1 Saldo, 2 Asesor o 3 Salir.', obligatoryMatch: true, noMatch: 'retry', nonMatchMessage: 'No entendí tu respuesta.',
          maxRetries: 2, waitMinutes: 10, assignTo: 'opcion',
          responses: [
            { id: 'saldo', label: 'Saldo', keywords: ['saldo'] },
            { id: 'asesor', label: 'Asesor', keywords: ['asesor', 'humano'] },
            { id: 'salir', label: 'Salir', keywords: ['adios', 'chao'] },
          ],
        },
      },
      { id: 'cedula', type: 'sendLock', title: 'Cédula', position: { x: -320, y: 340 }, settings: { text: 'Escribe tu número de cédula.', pattern: '^\\d{6,10}$', nonMatchMessage: 'La cédula tiene de 6 a 10 dígitos.', noMatch: 'retry', maxRetries: 2, waitMinutes: 10, assignTo: 'cedula' } },
      { id: 'saldo', type: 'end', title: 'Saldo', position: { x: -320, y: 520 }, settings: { text: 'La cuenta de la cédula {{cedula}} tiene 120.000 créditos disponibles.' } },
      { id: 'aviso', type: 'smx', title: 'Aviso al asesor', position: { x: 0, y: 340 }, settings: { to: '+573001230099', text: 'Colibri Demo: {{phone}} pide un asesor.' } },
      { id: 'asesor', type: 'end', title: 'Asesor', position: { x: 0, y: 520 }, settings: { text: 'Un asesor te escribirá en los próximos minutos.' } },
      { id: 'adios', type: 'end', title: 'Despedida', position: { x: 320, y: 340 }, settings: { text: 'Gracias por escribirnos. ¡Hasta pronto!' } },
    ],
    edges: [
      { from: 'inicio', output: 'next', to: 'menu' },
      ...answerEdges('menu', { saldo: 'cedula', asesor: 'aviso', salir: 'adios' }, 'adios'),
      ...answerEdges('cedula', { next: 'saldo' }, 'adios'),
      { from: 'aviso', output: 'next', to: 'asesor' },
    ],
  };
}

export async function seedDemoFlows(trx: Transaction<Database>, companyId: number, now: Date): Promise<void> {
  const definition = demoFlow();
  const problems = validateFlow(definition);
  if (problems.length) throw new Error(`the demo flow breaks flow rules: ${JSON.stringify(problems)}`);
  const flow = await trx.insertInto('flows').values({
    company_id: companyId, name: DEMO_FLOW_NAME, description: 'Saludo, menú de tres opciones, consulta de saldo y aviso a un asesor.',
    draft: JSON.stringify(definition), published_version: 1, created_by: null, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  await trx.insertInto('flow_versions').values({ flow_id: flow.id, version: 1, definition: JSON.stringify(definition), published_by: null, published_at: now }).execute();
  const channels = await trx.selectFrom('channels').select(['id', 'name']).where('company_id', '=', companyId).where('type', '=', 'MO')
    .where('platform', 'in', ['whatsapp', 'sms']).orderBy('id').execute();
  if (!channels.length) return;
  await trx.insertInto('agents').values(channels.map((c) => ({
    company_id: companyId, name: `Atención ${c.name}`, channel_id: c.id, flow_id: flow.id, keywords: JSON.stringify([DEMO_FLOW_KEYWORD]), active: true, created_at: now, updated_at: now,
  }))).execute();
}
