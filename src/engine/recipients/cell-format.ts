// Spreadsheet values as the text a person typed: numbers without scientific notation (a phone
// stored as the number 3001234567 is "3001234567", never "3.001234567E9"), dates as ISO.

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

/** Built-in number formats that are dates or times (ECMA-376 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a number format shows a date or time: d, m, y, h or s outside quotes and [colour] tags. */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (BUILTIN_DATE_FORMATS.has(id)) return true;
  if (!code) return false;
  const bare = code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}
