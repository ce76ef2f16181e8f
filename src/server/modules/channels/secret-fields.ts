// The channel's secret columns: sealed on the way in, masked on the way out. A secret is bound
// to its column and company (the AAD of security/secrets.ts), so it only opens where it was put.
import { isMasked, maskSecret } from '../../../core/secret-mask.ts';
import type { StoredAccountSid } from '../../../engine/database.ts';
import { maskedValueError, nextSealed, openSealed } from '../../security/secret-writes.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { channelSecretContext } from '../../security/sealing-contexts.ts';

export { maskOrNull } from '../../security/secret-writes.ts';

export const secretColumns = {
  authorizationToken: 'authorization_token',
  pageAccessToken: 'page_access_token',
  clientToken: 'client_token',
  privateKey: 'private_key',
} as const;
export type SecretField = keyof typeof secretColumns;
export const secretFields = Object.keys(secretColumns) as SecretField[];

const sidContext = (companyId: number) => channelSecretContext('account_sids', companyId);

export function openSecret(box: SecretBox, sealed: string | null, column: string, companyId: number): string | null {
  return openSealed(box, sealed, channelSecretContext(column, companyId));
}

/** The stored value after a write of `input` (security/secret-writes.ts); `changed` feeds 99978. */
export function nextSecret(box: SecretBox, input: string | null | undefined, current: string | null, field: string, column: string, companyId: number) {
  return nextSealed(box, input, current, field, channelSecretContext(column, companyId));
}

export function openAccountSids(box: SecretBox, stored: StoredAccountSid[], companyId: number): { sid: string; secret: string }[] {
  return stored.map((s) => ({ sid: s.sid, secret: box.open(s.secret, sidContext(companyId)) }));
}

/** The account SIDs after a write: an item whose secret is the stored item's mask keeps that secret. */
export function nextAccountSids(
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
