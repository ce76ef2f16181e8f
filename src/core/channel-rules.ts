// Channel rules shared by the console's channel form and the server (spec 3 and 4: "channels
// can be enabled or disabled; enabling fails if required fields are missing").
//
// `platform` is the channel type of spec 3 (sms, rcs, whatsapp, fbMessenger); `type` is the
// direction: MT (one-way) or MO (two-way).
import type { ChannelPlatform, ChannelType } from '../generated/enums.gen.ts';

export interface ChannelShape {
  platform: ChannelPlatform;
  type: ChannelType;
  sender?: string | null;
  shortCode?: string | null;
  keywords?: readonly string[] | null;
  facebookPageId?: string | null;
  clientEmail?: string | null;
  /** Secret fields count as present when a value is stored (the server knows; the console sees a mask). */
  authorizationToken?: string | null;
  pageAccessToken?: string | null;
  privateKey?: string | null;
  accountSids?: readonly unknown[] | null;
}

// Why these per-platform lists live here and not in the channel definitions of
// src/engine/channels: the console's channel form reads them too, and the console may not import
// the engine (ARCHITECTURE 2). So a channel type's definition owns how it talks to its provider,
// and this file owns what its form asks for; both are keyed by the platform, exhaustively, so a
// new value of schemas/enums/channel-platform.yaml makes the compiler point at both.

/**
 * What each platform needs before it can carry traffic. A group of several fields is satisfied
 * by any one of them (an SMS channel sends from a long number or from a short code).
 *   sms          sender or short code; the provider's authorization token
 *   rcs          the RBM agent (sender), the Google service account (client email, private key)
 *   whatsapp     the business phone (sender), the Cloud API token, the account SIDs (WABA)
 *   fbMessenger  the Facebook page ID and its page access token
 */
export const enableRequirements: Record<ChannelPlatform, readonly (readonly (keyof ChannelShape)[])[]> = {
  sms: [['sender', 'shortCode'], ['authorizationToken']],
  rcs: [['sender'], ['clientEmail'], ['privateKey']],
  whatsapp: [['sender'], ['authorizationToken'], ['accountSids']],
  fbMessenger: [['facebookPageId'], ['pageAccessToken']],
};

const present = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && v !== '');

/** The first field of each group of `requirements` the channel does not meet (any one field of a group meets it). */
export function unmetRequirements(requirements: readonly (readonly string[])[], channel: Readonly<Record<string, unknown>>): string[] {
  return requirements.filter((group) => !group.some((f) => present(channel[f]))).map((group) => group[0]);
}

/** The fields still missing before the channel can be enabled (first field of each unmet group). */
export function missingForEnable(channel: ChannelShape): string[] {
  return unmetRequirements(enableRequirements[channel.platform], channel as unknown as Record<string, unknown>);
}

/** The fields a platform uses at all; others are refused on create and update. */
export const platformFields: Record<ChannelPlatform, readonly string[]> = {
  sms: ['sender', 'shortCode', 'keywords', 'authorizationToken', 'clientToken', 'accountSids'],
  rcs: ['sender', 'keywords', 'clientEmail', 'privateKey', 'clientToken'],
  whatsapp: ['sender', 'keywords', 'authorizationToken', 'clientToken', 'accountSids'],
  fbMessenger: ['keywords', 'facebookPageId', 'pageAccessToken', 'clientToken'],
};

/**
 * The fields that identify the channel to its provider. While a channel is enabled traffic may be
 * flowing with them, so they change only after disabling it (99978).
 */
export const credentialFields = [
  'sender', 'shortCode', 'authorizationToken', 'pageAccessToken', 'clientToken', 'accountSids', 'facebookPageId', 'privateKey', 'clientEmail',
] as const;

/** Keywords compare as operators route them: trimmed, upper case (accents are kept: SÍ is not SI). */
export const normalizeKeyword = (keyword: string) => keyword.trim().toLocaleUpperCase('es-CO');

/**
 * Short codes: a channel with a short code answers replies, so it must be MO (99969), and replies
 * are routed by keyword, so it needs at least one (99971).
 */
export function shortCodeProblem(channel: Pick<ChannelShape, 'type' | 'shortCode' | 'keywords'>): '99969' | '99971' | null {
  if (!present(channel.shortCode)) return null;
  if (channel.type !== 'MO') return '99969';
  if (!present(channel.keywords)) return '99971';
  return null;
}

/** An RBM agent id (the RCS sender): "colibri_demo_agent" or "colibri-demo@rbm.goog". */
export const isRcsAgentId = (value: string) => /^[a-z0-9][a-z0-9_-]{2,99}(@rbm\.goog)?$/.test(value);
