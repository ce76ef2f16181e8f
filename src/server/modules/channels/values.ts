// A channel's plain (non-secret) values: normalised from the request, checked against the
// platform's rules, and compared with what is stored (99978 needs to know what changed).
import { normalizeKeyword, shortCodeProblem, isRcsAgentId, unmetRequirements } from '../../../core/channel-rules.ts';
import type { ChannelType } from '../../../generated/enums.gen.ts';
import { normalizeEmail } from '../../../core/email.ts';
import { normalizeColombianPhone } from '../../../core/phone.ts';
import { capabilitiesOf } from '../../../engine/channels/index.ts';
import type { ChannelsCreateBody } from '../../../generated/types.gen.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';

export interface PlainValues {
  name: string;
  type: ChannelType;
  sender: string | null;
  shortCode: string | null;
  tags: string[];
  keywords: string[];
  priority: number;
  facebookPageId: string | null;
  clientEmail: string | null;
  callbackUrl: string | null;
}

/** The request's plain fields (create body or update body), before merging with the stored ones. */
export type PlainInput = Partial<Pick<ChannelsCreateBody, keyof PlainValues>>;

/** Sender as stored: E.164 for a phone sender (99963 when not a Colombian phone), the RBM agent id for rcs (the type's capabilities say which). */
function normalizeSender(platform: string, sender: string | null | undefined): string | null | undefined {
  if (sender === undefined || sender === null) return sender;
  if (capabilitiesOf(platform).sender === 'rbmAgent') {
    const agent = sender.trim().toLowerCase();
    if (!isRcsAgentId(agent)) throw failFields([fieldError('sender', '99931', 'an RBM agent id')]);
    return agent;
  }
  const phone = normalizeColombianPhone(sender);
  if (!phone) throw failFields([fieldError('sender', '99963')]);
  return phone;
}

/** Merges the request into the stored values (or the defaults) and normalises every field. */
export function mergePlain(platform: string, current: PlainValues | null, input: PlainInput): PlainValues {
  const base: PlainValues = current ?? {
    name: '', type: 'MT', sender: null, shortCode: null, tags: [], keywords: [], priority: 5, facebookPageId: null, clientEmail: null, callbackUrl: null,
  };
  const sender = normalizeSender(platform, input.sender);
  const keywords = input.keywords === undefined ? base.keywords : [...new Set(input.keywords.map(normalizeKeyword))];
  const tags = input.tags === undefined ? base.tags : [...new Set((input.tags as readonly string[]).map((t) => t.trim()).filter(Boolean))];
  return {
    name: input.name === undefined ? base.name : input.name.trim(),
    type: input.type ?? base.type,
    sender: sender === undefined ? base.sender : sender,
    shortCode: input.shortCode === undefined ? base.shortCode : input.shortCode,
    tags,
    keywords,
    priority: input.priority ?? base.priority,
    facebookPageId: input.facebookPageId === undefined ? base.facebookPageId : input.facebookPageId,
    clientEmail: input.clientEmail === undefined ? base.clientEmail : input.clientEmail === null ? null : normalizeEmail(input.clientEmail),
    callbackUrl: input.callbackUrl === undefined ? base.callbackUrl : input.callbackUrl,
  };
}

/**
 * The fields a channel type uses at all (its definition's credential fields, and keywords, which
 * every type may route by); others are refused on create and update. For the built-in types this
 * is core/channel-rules.ts platformFields, the console form's list (a unit test holds them equal).
 */
export const fieldsOf = (platform: string): readonly string[] => ['keywords', ...capabilitiesOf(platform).credentials.fields];

/** The fields still missing before a channel of this type can be enabled (its definition's `credentials.required`). */
export const missingFor = (platform: string, channel: Readonly<Record<string, unknown>>): string[] =>
  unmetRequirements(capabilitiesOf(platform).credentials.required, channel);

const hasValue = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== '');

/**
 * The platform's structural rules on the merged channel: fields it does not use (99931), a name
 * that trims to nothing (99931), MO on a one-way type (99931), short codes MO (99969) with a keyword (99971).
 */
export function checkPlatformRules(platform: string, values: PlainValues, secretsPresent: Record<string, boolean>): void {
  if (values.name === '') throw failFields([fieldError('name')]);
  const allowed = fieldsOf(platform);
  const used: Record<string, unknown> = {
    sender: values.sender, shortCode: values.shortCode, keywords: values.keywords, facebookPageId: values.facebookPageId, clientEmail: values.clientEmail,
  };
  for (const [field, present] of Object.entries(secretsPresent)) used[field] = present ? 'set' : null;
  const foreign = Object.entries(used).filter(([field, v]) => hasValue(v) && !allowed.includes(field)).map(([field]) => field);
  if (foreign.length) {
    throw failFields(foreign.map((field) => fieldError(field, '99931', `not used by ${platform} channels`)));
  }
  // A type that only sends has no inbound path: an MO channel of it would wait for replies that never come.
  if (values.type === 'MO' && capabilitiesOf(platform).direction === 'one-way') throw failFields([fieldError('type', '99931', `${platform} channels only send (MT)`)]);
  const problem = shortCodeProblem(values);
  if (problem) throw failFields([fieldError(problem === '99969' ? 'type' : 'keywords', problem)]);
}

/** Whether a credential field (identity towards the provider) differs between stored and merged values. */
export function plainCredentialsChanged(before: PlainValues, after: PlainValues): boolean {
  return before.sender !== after.sender || before.shortCode !== after.shortCode || before.facebookPageId !== after.facebookPageId || before.clientEmail !== after.clientEmail;
}
