// Colombian NIT (DIAN tax id): the base number and its verification digit ("DV"), written
// 900123456-8. The DV weights the base digits from the right by 3, 7, 13, 17, 19, 23, 29, 37, 41,
// 43, 47, 53, 59, 67, 71; with r = sum mod 11 the digit is r when r is 0 or 1, else 11 - r.
const WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71] as const;
const NIT = /^(\d{6,15})-(\d)$/;

/** The verification digit of a NIT base (digits only, at most 15), or null for anything else. */
export function nitCheckDigit(base: string): number | null {
  if (!/^\d{1,15}$/.test(base)) return null;
  let sum = 0;
  for (let i = 0; i < base.length; i++) sum += Number(base[base.length - 1 - i]) * WEIGHTS[i];
  const r = sum % 11;
  return r > 1 ? 11 - r : r;
}

/** "900123456-8": 6 to 15 digits, a dash and the right verification digit. */
export function isValidNit(input: string): boolean {
  const m = NIT.exec(input);
  return m !== null && nitCheckDigit(m[1]) === Number(m[2]);
}

/** A NIT without its verification digit and separators: "900.123.456-7" and "900123456" are the same client. */
export const nitBase = (nit: string): string => nit.split('-')[0].replace(/\D/g, '');
