// Messaging settings (schemas/api/messaging-settings.yaml, component 6004): the status-callback
// URL and its signing secret (generated here, sealed at rest, answered once), the send-window
// profile (a named one or custom windows checked with profileProblems), the duplicate rule's
// window and the SMS fallback channel. Every query is scoped to the caller's company.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { profileProblems, storedPolicy, type DayWindow, type SendWindowProfile } from '../../../core/send-window.ts';
import type { MessagingSettingsTable } from '../../../engine/database.ts';
import type { CustomSendWindow, MessagingSettings } from '../../../generated/types.gen.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { callbackSecretContext } from '../../security/sealing-contexts.ts';
import { DEFAULT_DUPLICATE_HOURS } from '../../../engine/campaigns/index.ts';
import { portOf, type OutboundPolicy } from '../../security/outbound-guard.ts';

type Row = Selectable<MessagingSettingsTable>;

const toText = (w: DayWindow | null | undefined): string | null => (w ? `${w.from}-${w.to}` : null);
const toWindow = (text: string | null): DayWindow | null => {
  if (text === null) return null;
  const [from, to] = text.split('-');
  return { from, to };
};

function toSettings(row: Row | undefined, callbackSecret: string | null = null): MessagingSettings {
  const { name, profile } = storedPolicy(row?.send_window ?? null);
  const customWindow: CustomSendWindow = {
    weekdays: toText(profile.weekdays), saturday: toText(profile.saturday), sunday: toText(profile.sunday), holidays: profile.holidays !== false,
  };
  return {
    callbackUrl: row?.callback_url ?? null,
    callbackSecretSet: !!row?.callback_secret,
    callbackSecret,
    sendWindowProfile: name,
    customWindow,
    duplicateWindowHours: row?.duplicate_window_hours ?? DEFAULT_DUPLICATE_HOURS,
    smsFallbackChannelId: row?.sms_fallback_channel_id ?? null,
    fraudCheck: (row?.fraud_check ?? 'lookalike') as MessagingSettings['fraudCheck'],
  };
}

/**
 * https to a public host only; in the sandbox also a target it allows (SANDBOX_PRIVATE_TARGETS: a
 * local test receiver), over http too. Never this server itself (security/outbound-guard.ts).
 */
function checkCallbackUrl(value: string | null, outbound: OutboundPolicy): string | null {
  if (value === null || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw failFields([fieldError('callbackUrl', '99931', 'not a URL')]);
  }
  // Plain http only to a sandbox stand-in the operator named (it is on this machine or its network).
  const allowed = url.protocol === 'https:' || (url.protocol === 'http:' && outbound.isStandIn(url.hostname, portOf(url)));
  if (!allowed) throw failFields([fieldError('callbackUrl', '99931', outbound.sandbox ? 'https, or http to a sandbox target (SANDBOX_PRIVATE_TARGETS)' : 'https only')]);
  if (url.username || url.password) throw failFields([fieldError('callbackUrl', '99931', 'no credentials in the URL: requests are signed')]);
  // Callbacks never go into the server's own network (the deliverer checks resolved names too).
  const refusal = outbound.urlRefusal(url);
  if (refusal) throw failFields([fieldError('callbackUrl', '99931', `a public address only: private, loopback and link-local addresses are refused (${refusal})`)]);
  return url.toString();
}

function customProfile(custom: CustomSendWindow | undefined): SendWindowProfile {
  if (!custom) throw failFields([fieldError('customWindow', '99999')]);
  const profile: SendWindowProfile = {
    weekdays: toWindow(custom.weekdays), saturday: toWindow(custom.saturday), sunday: toWindow(custom.sunday), holidays: custom.holidays,
  };
  const problems = profileProblems(profile);
  if (problems.length) {
    throw failFields(problems.map((p) => fieldError(p.day && p.day !== 'holidays' ? `customWindow.${p.day}` : 'sendWindowProfile', '99931', p.code)));
  }
  return profile;
}

export const messagingSettingsHandlers: DomainHandlers<'messagingSettings'> = {
  'messagingSettings.get': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.selectFrom('messaging_settings').selectAll().where('company_id', '=', me.companyId).executeTakeFirst();
    return toSettings(row);
  },

  'messagingSettings.update': async (ctx) => {
    const me = caller(ctx);
    const { deps, body } = ctx;
    const db = deps.db;
    const callbackUrl = checkCallbackUrl(body.callbackUrl, deps.outbound);
    const sendWindow = body.sendWindowProfile === 'custom' ? JSON.stringify(customProfile(body.customWindow)) : JSON.stringify(body.sendWindowProfile);
    if (body.smsFallbackChannelId !== null) {
      const channel = await db.selectFrom('channels').select('id').where('id', '=', body.smsFallbackChannelId)
        .where('company_id', '=', me.companyId).where('platform', '=', 'sms').executeTakeFirst();
      if (!channel) throw failFields([fieldError('smsFallbackChannelId', '99931', 'not an SMS channel of the company')]);
    }
    const now = deps.now();
    let issued: string | null = null;
    const row = await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('messaging_settings').select('callback_secret').where('company_id', '=', me.companyId).forUpdate().executeTakeFirst();
      let secret = current?.callback_secret ?? null;
      if (body.rotateCallbackSecret || (callbackUrl && !secret)) {
        issued = `whsec_${randomBytes(32).toString('base64url')}`;
        secret = deps.secrets.seal(issued, callbackSecretContext(me.companyId));
      }
      const values = {
        send_window: sendWindow, duplicate_window_hours: body.duplicateWindowHours, callback_url: callbackUrl, callback_secret: secret,
        sms_fallback_channel_id: body.smsFallbackChannelId, updated_at: now, ...(body.fraudCheck ? { fraud_check: body.fraudCheck } : {}),
      };
      return trx.insertInto('messaging_settings').values({ company_id: me.companyId, ...values })
        .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
        .returningAll().executeTakeFirstOrThrow();
    });
    // The dispatcher caches each company's window for 30 s: the new one applies from the next batch.
    deps.messaging.sendWindow.forget?.(me.companyId);
    return toSettings(row, issued);
  },
};
