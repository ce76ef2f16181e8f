// A channel's credentials document (StoredCredentials: one sealed value per secret field, and the
// account SIDs with sealed secrets): sealed on the way in, masked on the way out. A value is bound
// to its field and company (security/sealing-contexts.ts), so it only opens where it was put. The
// same document serves every channel type: which fields a type uses is its definition's
// `credentials` (engine/channels), checked in values.ts.
import { isMasked, maskSecret } from '../../../core/secret-mask.ts';
import type { StoredAccountSid, StoredCredentials } from '../../../engine/database.ts';
import { maskedValueError, nextSealed, openSealed } from '../../security/secret-writes.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { channelCredentialContext } from '../../security/sealing-contexts.ts';

export { maskOrNull } from '../../security/secret-writes.ts';

/** The API's secret text fields (spec 3's channel); the account SIDs are the one secret list. */
export const secretFields = ['authorizationToken', 'pageAccessToken', 'clientToken', 'privateKey'] as const;
export type SecretField = (typeof secretFields)[number];

/** What a request may say about the credentials: each field absent (kept), null (cleared), a mask (kept) or a new value. */
export type CredentialsInput = Partial<Record<SecretField, string | null>> & { accountSids?: readonly { sid: string; secret: string }[] };

export const noCredentials = (): StoredCredentials => ({ secrets: {}, accountSids: [] });

const sidContext = (companyId: number) => channelCredentialContext('accountSids', companyId);
const secretsOf = (stored: StoredCredentials) => stored.secrets ?? {};
const sidsOf = (stored: StoredCredentials) => stored.accountSids ?? [];

/** One secret field opened (null where none is stored). */
export const openSecret = (box: SecretBox, stored: StoredCredentials, field: SecretField, companyId: number): string | null =>
  openSealed(box, secretsOf(stored)[field] ?? null, channelCredentialContext(field, companyId));

/** Every secret field opened (null where none is stored). */
export function openSecrets(box: SecretBox, stored: StoredCredentials, companyId: number): Record<SecretField, string | null> {
  const out = {} as Record<SecretField, string | null>;
  for (const field of secretFields) out[field] = openSecret(box, stored, field, companyId);
  return out;
}

/** A new channel's credentials document, sealed for `companyId` (the demo seed and tests write channels with it). */
export function sealCredentials(box: SecretBox, companyId: number, secrets: Partial<Record<SecretField, string>>, accountSids: readonly { sid: string; secret: string }[] = []): StoredCredentials {
  return nextCredentials(box, { ...secrets, accountSids }, noCredentials(), companyId).stored;
}

export function openAccountSids(box: SecretBox, stored: StoredCredentials, companyId: number): { sid: string; secret: string }[] {
  return sidsOf(stored).map((s) => ({ sid: s.sid, secret: box.open(s.secret, sidContext(companyId)) }));
}

/** Which credentials hold a value (the platform rules refuse a field the type does not use). */
export function presenceOf(stored: StoredCredentials): Record<SecretField | 'accountSids', boolean> {
  const out = {} as Record<SecretField | 'accountSids', boolean>;
  for (const field of secretFields) out[field] = Boolean(secretsOf(stored)[field]);
  out.accountSids = sidsOf(stored).length > 0;
  return out;
}

/** The account SIDs after a write: an item whose secret is the stored item's mask keeps that secret. */
function nextAccountSids(
  box: SecretBox,
  input: readonly { sid: string; secret: string }[] | undefined,
  current: StoredAccountSid[],
  companyId: number,
): { stored: StoredAccountSid[]; changed: boolean } {
  if (input === undefined) return { stored: current, changed: false };
  const opened = new Map(current.map((s) => [s.sid, { sealed: s.secret, plain: box.open(s.secret, sidContext(companyId)) }]));
  let changed = input.length !== current.length;
  const stored = input.map((item, i) => {
    const existing = opened.get(item.sid);
    if (isMasked(item.secret)) {
      if (!existing || maskSecret(existing.plain) !== item.secret) throw maskedValueError(`accountSids.${i}.secret`);
      if (current[i]?.sid !== item.sid) changed = true;
      return { sid: item.sid, secret: existing.sealed };
    }
    if (existing && existing.plain === item.secret && current[i]?.sid === item.sid) return { sid: item.sid, secret: existing.sealed };
    changed = true;
    return { sid: item.sid, secret: box.seal(item.secret, sidContext(companyId)) };
  });
  return { stored, changed };
}

/**
 * The document after a write of `input` over `current` (security/secret-writes.ts's rules per
 * field); `changed` feeds 99978 (credentials of an enabled channel change only after disabling it).
 */
export function nextCredentials(box: SecretBox, input: CredentialsInput, current: StoredCredentials, companyId: number): { stored: StoredCredentials; changed: boolean } {
  const secrets: Partial<Record<string, string>> = { ...secretsOf(current) };
  let changed = false;
  for (const field of secretFields) {
    const next = nextSealed(box, input[field], secretsOf(current)[field] ?? null, field, channelCredentialContext(field, companyId));
    if (next.sealed === null) delete secrets[field];
    else secrets[field] = next.sealed;
    changed ||= next.changed;
  }
  const sids = nextAccountSids(box, input.accountSids, sidsOf(current), companyId);
  return { stored: { secrets, accountSids: sids.stored }, changed: changed || sids.changed };
}
