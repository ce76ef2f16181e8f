// The HTTP channels' adapters (WhatsApp Cloud API, Messenger Send API, RCS Business Messaging)
// built from a channel's row: identifiers from its columns and `connection`, secrets opened from
// its sealed columns. A channel whose `connection.baseUrl` is set talks to that host; otherwise
// production's, or — in sandbox mode — the in-process stand-ins (src/sandbox/graph, src/sandbox/rbm),
// where the channel is registered with its own secrets and our server's webhook URL, so the
// stand-ins' signed webhooks come back through the real routes.
import { createPublicKey } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ChannelAdapter } from '../../engine/channel-adapter.ts';
import type { HttpAdapterOptions } from '../../engine/channels/shared/http-client.ts';
import { createMessengerAdapter } from '../../engine/channels/messenger/index.ts';
import { createRcsAdapter, RBM_BASE_URL, serviceAccountTokenProvider } from '../../engine/channels/rcs/index.ts';
import { createWhatsAppAdapter, GRAPH_BASE_URL, type GraphAccount } from '../../engine/channels/whatsapp/index.ts';
import type { EngineDatabase } from '../../engine/tables.ts';
import type { GraphSandbox, RbmSandbox } from '../composition.ts';

export const HTTP_PLATFORMS = ['whatsapp', 'fbMessenger', 'rcs'] as const;
export type HttpPlatform = (typeof HTTP_PLATFORMS)[number];

const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ChannelRow {
  id: number;
  company_id: number;
  platform: string;
  sender: string | null;
  authorization_token: string | null;
  page_access_token: string | null;
  client_token: string | null;
  account_sids: { sid: string; secret: string }[];
  facebook_page_id: string | null;
  private_key: string | null;
  client_email: string | null;
  connection: Record<string, unknown>;
}

export interface HttpChannelContext {
  db: Kysely<EngineDatabase>;
  /** Opens a sealed column of the channel ('' when empty). */
  open(sealed: string | null, column: string, companyId: number): string;
  graph: GraphSandbox | null;
  rbm: RbmSandbox | null;
  /** Our server's URL once it listens (the stand-ins post webhooks there). */
  publicUrl(): string | null;
  now?: () => Date;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const webhookPath: Record<HttpPlatform, string> = { whatsapp: 'whatsapp', fbMessenger: 'messenger', rcs: 'rcs' };

export const isHttpPlatform = (platform: string): platform is HttpPlatform => (HTTP_PLATFORMS as readonly string[]).includes(platform);

/** The Graph phone-number id: connection.phoneNumberId, else the first account SID. */
const phoneNumberIdOf = (channel: ChannelRow) => text(channel.connection.phoneNumberId) ?? channel.account_sids[0]?.sid ?? '';
/** The WhatsApp Business Account id (templates live there): connection.wabaId, else the first account SID. */
const wabaIdOf = (channel: ChannelRow) => text(channel.connection.wabaId) ?? channel.account_sids[0]?.sid ?? '';

/** Whether this channel talks to an in-process stand-in (sandbox mode, no baseUrl of its own). */
export function usesStandIn(context: HttpChannelContext, channel: ChannelRow): boolean {
  if (text(channel.connection.baseUrl)) return false;
  return channel.platform === 'rcs' ? context.rbm !== null : context.graph !== null;
}

/**
 * Registers the channel with its stand-in (idempotent: replaces what was there), with the
 * webhook URL of our server when it is known. Answers false when the channel lacks what the
 * stand-in needs (its adapter would fail the same way against the real provider).
 */
export function registerWithStandIn(context: HttpChannelContext, channel: ChannelRow): boolean {
  if (!isHttpPlatform(channel.platform) || !usesStandIn(context, channel)) return false;
  const base = context.publicUrl();
  const webhookUrl = base ? `${base}/v1/webhooks/${webhookPath[channel.platform]}/${channel.id}` : undefined;
  const clientToken = context.open(channel.client_token, 'client_token', channel.company_id);
  if (channel.platform === 'whatsapp') {
    const id = phoneNumberIdOf(channel);
    const accessToken = context.open(channel.authorization_token, 'authorization_token', channel.company_id);
    if (!id || !accessToken) return false;
    context.graph!.setWhatsAppNumber({ id, displayPhoneNumber: (channel.sender ?? '').replace(/\D/g, ''), accessToken, appSecret: clientToken, verifyToken: clientToken, webhookUrl, wabaId: wabaIdOf(channel) || undefined });
    return true;
  }
  if (channel.platform === 'fbMessenger') {
    const accessToken = context.open(channel.page_access_token, 'page_access_token', channel.company_id);
    if (!channel.facebook_page_id || !accessToken) return false;
    context.graph!.setPage({ id: channel.facebook_page_id, accessToken, appSecret: clientToken, verifyToken: clientToken, webhookUrl });
    return true;
  }
  const privateKey = context.open(channel.private_key, 'private_key', channel.company_id);
  if (!channel.sender || !channel.client_email || !privateKey) return false;
  let publicKey;
  try {
    publicKey = createPublicKey(privateKey);
  } catch {
    return false; // not a PEM key: the token grant could not work either
  }
  context.rbm!.setAgent({ id: channel.sender, clientToken, webhookUrl, serviceAccount: { clientEmail: channel.client_email, publicKey } });
  return true;
}

/** Open 24-hour windows come from the inbound messages we stored for this channel. */
function customerWindow(context: HttpChannelContext, channelId: number) {
  return async (to: string): Promise<boolean> => {
    const since = new Date((context.now?.() ?? new Date()).getTime() - WINDOW_MS);
    const digits = to.replace(/^\+/, '');
    const row = await context.db.selectFrom('inbound_messages').select(sql<number>`1`.as('one'))
      .where('channel_id', '=', channelId).where('from_number', 'in', [`+${digits}`, digits]).where('received_at', '>', since)
      .limit(1).executeTakeFirst();
    return row !== undefined;
  };
}

/**
 * Where a WhatsApp channel's business account is reached for template management: the
 * channel's own baseUrl, production's, or (sandbox) the Graph stand-in, where the channel is
 * registered first. Null when the channel lacks its token or account id.
 */
export function whatsappGraphAccount(context: HttpChannelContext, channel: ChannelRow): GraphAccount | null {
  if (channel.platform !== 'whatsapp') return null;
  const standIn = usesStandIn(context, channel);
  if (standIn && !registerWithStandIn(context, channel)) return null;
  const wabaId = wabaIdOf(channel);
  const accessToken = context.open(channel.authorization_token, 'authorization_token', channel.company_id);
  if (!wabaId || !accessToken) return null;
  return { baseUrl: text(channel.connection.baseUrl) ?? (standIn ? context.graph!.url : GRAPH_BASE_URL), wabaId, accessToken };
}

/** The adapter of an enabled HTTP channel; null when its settings are incomplete. */
export function buildHttpAdapter(context: HttpChannelContext, channel: ChannelRow, options: HttpAdapterOptions = {}): ChannelAdapter | null {
  if (!isHttpPlatform(channel.platform)) return null;
  const standIn = usesStandIn(context, channel);
  if (standIn && !registerWithStandIn(context, channel)) return null;
  const configured = text(channel.connection.baseUrl);
  const http = options;
  if (channel.platform === 'whatsapp') {
    const phoneNumberId = phoneNumberIdOf(channel);
    const accessToken = context.open(channel.authorization_token, 'authorization_token', channel.company_id);
    if (!phoneNumberId || !accessToken) return null;
    const baseUrl = configured ?? (standIn ? context.graph!.url : GRAPH_BASE_URL);
    return createWhatsAppAdapter({ ...http, baseUrl, phoneNumberId, accessToken, customerWindow: customerWindow(context, channel.id) });
  }
  if (channel.platform === 'fbMessenger') {
    const pageAccessToken = context.open(channel.page_access_token, 'page_access_token', channel.company_id);
    if (!channel.facebook_page_id || !pageAccessToken) return null;
    const baseUrl = configured ?? (standIn ? context.graph!.url : GRAPH_BASE_URL);
    const messagingType = text(channel.connection.messagingType) as 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG' | undefined;
    const tag = text(channel.connection.tag) as never;
    return createMessengerAdapter({ ...http, baseUrl, pageId: channel.facebook_page_id, pageAccessToken, messagingType, tag });
  }
  const privateKey = context.open(channel.private_key, 'private_key', channel.company_id);
  if (!channel.sender || !channel.client_email || !privateKey) return null;
  const baseUrl = configured ?? (standIn ? context.rbm!.url : RBM_BASE_URL);
  const tokenUrl = text(channel.connection.tokenUrl) ?? (standIn ? context.rbm!.tokenUrl : undefined);
  return createRcsAdapter({
    ...http, baseUrl, agentId: channel.sender,
    accessToken: serviceAccountTokenProvider({ clientEmail: channel.client_email, privateKey, tokenUrl }),
  });
}
