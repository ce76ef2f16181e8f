// Writing a secret field from a form: the form loaded the record with its secrets masked and may
// post the mask back untouched. undefined keeps the stored value, null clears it, the stored
// value's own mask keeps it, any other mask is invalid (99931), anything else is sealed.
import { isMasked, maskSecret } from '../../core/secret-mask.ts';
import { failFields, fieldError, type ApiError } from '../errors/api-error.ts';
import type { SecretBox } from './secrets.ts';

export const openSealed = (box: SecretBox, sealed: string | null, context: string): string | null =>
  sealed === null ? null : box.open(sealed, context);

export const maskOrNull = (plain: string | null) => (plain === null ? null : maskSecret(plain));

export function maskedValueError(field: string): ApiError {
  return failFields([fieldError(field, '99931', 'a masked value only keeps the stored secret')]);
}

export function nextSealed(
  box: SecretBox,
  input: string | null | undefined,
  current: string | null,
  field: string,
  context: string,
): { sealed: string | null; changed: boolean } {
  if (input === undefined) return { sealed: current, changed: false };
  if (input === null) return { sealed: null, changed: current !== null };
  const plain = openSealed(box, current, context);
  if (isMasked(input)) {
    if (plain !== null && maskSecret(plain) === input) return { sealed: current, changed: false };
    throw maskedValueError(field);
  }
  if (plain === input) return { sealed: current, changed: false };
  return { sealed: box.seal(input, context), changed: true };
}
