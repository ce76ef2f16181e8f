// What the company's API notification e-mail (api_settings.notification_email) is told about its
// credentials: created, rotated, revoked (the credentials module), and a key presented with its
// right secret from an address not authorised (the API's door, http/operations.ts). Never the key.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { MessageProvider } from '../../core/ports/message.ts';
import type { Database } from '../../engine/database.ts';

/** What a notice needs of the server's parts. */
export interface NoticeDeps { db: Kysely<Database>; messages: MessageProvider; now: () => Date }

/**
 * Tells the notification e-mail about a credential change (never the key). A failed notice is
 * logged and does not undo the change.
 */
export async function notify(deps: NoticeDeps, log: FastifyBaseLogger, companyId: number, what: string, credential: { id: string; name: string }) {
  const settings = await deps.db.selectFrom('api_settings').select('notification_email').where('company_id', '=', companyId).executeTakeFirst();
  if (!settings?.notification_email) return;
  try {
    await deps.messages.send({
      channel: 'email',
      to: settings.notification_email,
      companyId,
      subject: `Colibri: credencial de API ${what}`,
      body: `La credencial de API "${credential.name}" (${credential.id}) fue ${what} el ${deps.now().toISOString()}.`,
    });
  } catch (error) {
    log.warn({ err: error }, 'credential notice not sent');
  }
}
