// Spreadsheet values as the text a person sees: a number in the General format as its digits (a
// phone stored as the number 3001234567 is "3001234567", never "3.001234567E9"), and a number with
// a format of its own (a date dd/mm/yyyy, "$ 50.000", "12,5 %") as Excel shows it in Colombia,
// formatted by numfmt (Excel's number-format language) with the es-CO locale: a date formatted
// 05/12/2026 reaches the message as "05/12/2026", not "2026-12-05".
import { format as formatNumber, getFormatFromId } from 'numfmt';

/** A number cell's text. Integers keep every digit; fractions keep Excel's 15 significant digits. */
export function numberText(raw: string | number): string {
  if (typeof raw === 'string' && /^-?\d{1,15}$/.test(raw)) return raw;
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(n)) return String(raw).trim();
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  const rounded = Number(n.toPrecision(15));
  const text = String(rounded);
  return /e/i.test(text) ? rounded.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) : text;
}

const DAY_MS = 86_400_000;

/** A serial date (days since 1899-12-30, or 1904-01-01) as ISO: "2025-06-30" or "2025-06-30T08:30:00". */
export function serialDateText(serial: number, date1904 = false): string {
  const ms = Math.round(((date1904 ? serial + 1462 : serial) - 25569) * DAY_MS / 1000) * 1000;
  return isoWallTime(new Date(ms));
}

/** A wall-clock date-time (its UTC fields are the sheet's local time) without a zone. */
export function isoWallTime(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}

/** The locale cells are shown in: Colombian Excel (day first, '.' thousands, ',' decimals, Spanish month names). */
export const CELL_LOCALE = 'es-CO';

/**
 * Built-in formats whose display follows the computer's regional settings (ECMA-376 18.8.30: 14 is
 * the short date, 22 the short date and time): on a Colombian computer, day first.
 */
const REGIONAL_BUILTINS: Readonly<Record<number, string>> = { 14: 'dd/mm/yyyy', 22: 'dd/mm/yyyy h:mm' };

/** The format code of a cell style: a regional built-in as Colombia shows it, the workbook's own code, else the built-in's; null for General. */
export function formatCodeOf(id: number, code: string | undefined): string | null {
  const chosen = REGIONAL_BUILTINS[id] ?? code ?? getFormatFromId(id) ?? null;
  return chosen === null || /^general$/i.test(chosen.trim()) || chosen.trim() === '@' ? null : chosen;
}

/**
 * A number cell as Excel shows it in Colombia: with its format code, or as numberText in General.
 * A 1904-system serial is moved to 1900's first. A code numfmt cannot read, or a date out of
 * Excel's range, falls back to the value itself (ISO for a date format), never to an error.
 */
export function displayText(raw: string | number, code: string | null, date1904 = false): string {
  if (code === null) return numberText(raw);
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(n)) return String(raw).trim();
  const date = isDateFormat(-1, code);
  try {
    // Plain spaces: the locale's "p. m." and groupings may hold no-break spaces, which are no GSM-7
    // character (a whole SMS would switch to UCS-2 and cost double).
    return formatNumber(code, date && date1904 ? n + 1462 : n, { locale: CELL_LOCALE, dateErrorNumber: false, dateErrorThrows: true }).replace(/[\u00a0\u202f]/g, ' ');
  } catch {
    return date ? serialDateText(n, date1904) : numberText(raw);
  }
}

/** Built-in number formats that are dates or times (ECMA-376 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a number format shows a date or time: d, m, y, h or s outside quotes and [colour] tags. */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (BUILTIN_DATE_FORMATS.has(id)) return true;
  if (!code) return false;
  const bare = code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}
