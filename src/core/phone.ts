// Colombian numbers (research/protocols.md 6): 10 digits since 2021; mobiles start with 3,
// geographic numbers with 60X. Stored in E.164 (+57…). The operator is NOT derived from the
// prefix (number portability).
const MOBILE = /^3\d{9}$/;
const FIXED = /^60[1-8]\d{7}$/;

// A leading minus (a spreadsheet's negative number, "-3001234567", "+-300…"): a number, not a phone.
const SIGNED = /^\s*\+?\s*[-\u2212\u2013]/;

/** Whether the text starts with a minus sign, which separators must not hide. */
export const isSignedNumber = (input: string): boolean => SIGNED.test(input);

/** Accepts 3001234567, +57 300 123 4567, 57-300-123-4567; answers +573001234567 or null. */
export function normalizeColombianPhone(input: string): string | null {
  if (isSignedNumber(input)) return null;
  const digits = input.replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(digits)) return null;
  let national = digits.replace(/^\+/, '');
  if (national.length === 12 && national.startsWith('57')) national = national.slice(2);
  if (national.length !== 10) return null;
  return MOBILE.test(national) || FIXED.test(national) ? `+57${national}` : null;
}

export const isColombianPhone = (input: string) => normalizeColombianPhone(input) !== null;
export const isColombianMobile = (input: string) => {
  const e164 = normalizeColombianPhone(input);
  return e164 !== null && MOBILE.test(e164.slice(3));
};

/**
 * What a channel type can reach (its definition says): `mobile` numbers only (SMS and RCS: a
 * fixed line 60X cannot receive them), any Colombian `phone` (WhatsApp accounts exist on fixed
 * lines), or a Messenger `psid` (the page-scoped id, digits).
 */
export type Reach = 'mobile' | 'phone' | 'psid';

/** The address a message to `to` goes to on a channel that reaches `reach`, or null when it cannot go there. */
export function addressFor(reach: Reach, to: string): string | null {
  if (reach === 'psid') return /^\d{5,32}$/.test(to) ? to : null;
  const e164 = normalizeColombianPhone(to);
  if (e164 === null) return null;
  return reach === 'mobile' && !MOBILE.test(e164.slice(3)) ? null : e164;
}

/** Masks a destination for display: +57300***4567, j***@empresa.co */
export function maskDestination(to: string): string {
  if (to.includes('@')) {
    const [user, domain] = to.split('@');
    return `${user.slice(0, 1)}***@${domain}`;
  }
  return to.length > 7 ? `${to.slice(0, 6)}***${to.slice(-4)}` : '***';
}

/**
 * The forms a number may be stored in, from one as people write it (+57 300 123 4567,
 * 573001234567, 3001234567): channels give contacts as they come (WhatsApp's wa_id is digits, SMPP
 * gives +57…), so a lookup by number asks for each form.
 */
export function numberForms(input: string): string[] {
  const digits = input.replace(/\D/g, '');
  if (!digits) return [input.trim()];
  const forms = new Set([input.trim(), digits, `+${digits}`]);
  if (digits.length === 10 && digits.startsWith('3')) for (const f of [`57${digits}`, `+57${digits}`]) forms.add(f);
  return [...forms];
}
