// One data row of a recipients file judged against the column plan (types.ts says what pass,
// warn, fail and error mean). Cells are data: "=HYPERLINK(…)", "<b>" or "@x" are kept as text
// for the message; the error report escapes them.
import { isSignedNumber, normalizeColombianPhone } from '../../core/phone.ts';
import type { ColumnPlan } from './headers.ts';
import type { PhoneSet } from './phone-set.ts';
import type { RowProblem, RowResult } from './types.ts';

export interface RowContext {
  plan: ColumnPlan;
  seen: PhoneSet;
  allowFixedLines: boolean;
  maxCellChars: number;
  now: Date;
  /** Rows decoded after an encoding switch carry undecidedEncoding. */
  encodingWarning: boolean;
}

export interface RawRow { row: number; cells: string[]; problem?: RowProblem['code'] }

export interface PhoneJudgement { phone: string | null; code?: 'emptyPhone' | 'invalidPhone' | 'invalidCountryCode'; fixedLine?: boolean; normalized?: boolean }

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The common case without a regular expression: exactly ten digits starting with 3. */
function plainMobile(raw: string): boolean {
  if (raw.length !== 10 || raw.charCodeAt(0) !== 51) return false;
  for (let k = 1; k < 10; k++) if (!isDigit(raw.charCodeAt(k))) return false;
  return true;
}

/** Whether a cell is empty or white space only (without allocating a trimmed copy). */
function blank(c: string): boolean {
  for (let k = 0; k < c.length; k++) {
    const ch = c.charCodeAt(k);
    if (ch > 32 && ch !== 0xa0 && ch !== 0xfeff && ch !== 0x3000 && !(ch >= 0x2000 && ch <= 0x200b)) return false;
  }
  return true;
}

const NO_PROBLEM: PhoneJudgement = { phone: null };
/** Shared by every row without problems (most of them): one array less per row. */
const NO_PROBLEMS: readonly RowProblem[] = Object.freeze([]);

/** A phone cell: E.164, or why not. `normalized` when anything had to be removed or added. */
export function judgePhone(raw: string, allowFixedLines: boolean): PhoneJudgement {
  if (plainMobile(raw)) return { phone: `+57${raw}` };
  const text = raw.trim();
  if (text === '') return { phone: null, code: 'emptyPhone' };
  // "-3001234567" (a negative number in a spreadsheet): separators must not hide the sign.
  if (isSignedNumber(text)) return { phone: null, code: 'invalidPhone' };
  let compact = text.replace(/[\s().-]/g, '');
  if (/^00\d/.test(compact)) compact = `+${compact.slice(2)}`;
  const phone = normalizeColombianPhone(compact);
  if (!phone) return { phone: null, code: /^\+(?!57)\d/.test(compact) ? 'invalidCountryCode' : 'invalidPhone' };
  const national = phone.slice(3);
  if (national.startsWith('60') && !allowFixedLines) return { phone: null, code: 'invalidPhone', fixedLine: true };
  return national === text ? { phone } : { phone, normalized: true };
}

const BOGOTA_OFFSET_H = 5;

/**
 * A send date-time in Bogotá time: 2025-06-30 08:30, 2025-06-30T08:30:00, 30/06/2025 8:30 a. m.,
 * 30/06/2025 (that day). Answers the UTC instant, or null when it is not a date.
 */
export function parseScheduleDate(text: string): { at: Date; dateOnly: boolean } | null {
  const t = text.trim();
  let y: number, mo: number, d: number, h = 0, mi = 0, s = 0, dateOnly = true;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(t);
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])?\.?\s?(?:m\.?)?)?$/i.exec(t);
  if (iso) {
    [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (iso[4] !== undefined) { dateOnly = false; h = Number(iso[4]); mi = Number(iso[5]); s = Number(iso[6] ?? 0); }
  } else if (dmy) {
    [d, mo, y] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
    if (dmy[4] !== undefined) {
      dateOnly = false;
      h = Number(dmy[4]); mi = Number(dmy[5]); s = Number(dmy[6] ?? 0);
      const half = dmy[7]?.toLowerCase();
      if (half && (h < 1 || h > 12)) return null;
      if (half === 'p' && h < 12) h += 12;
      if (half === 'a' && h === 12) h = 0;
    }
  } else return null;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const at = new Date(Date.UTC(y, mo - 1, d, h + BOGOTA_OFFSET_H, mi, s));
  // 31/02 rolls over into March: not a date.
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  return { at, dateOnly };
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return url.hostname.includes('.') || url.hostname === 'localhost';
  } catch {
    return false;
  }
}

const DAY_MS = 86_400_000;

/** The row's result, or null for a blank row (nothing but empty cells: skipped, not counted). */
export function validateRow(raw: RawRow, ctx: RowContext): RowResult | null {
  const { cells } = raw;
  const { plan } = ctx;
  if (!raw.problem) {
    let empty = true;
    for (let k = 0; k < cells.length; k++) if (!blank(cells[k])) { empty = false; break; }
    if (empty) return null;
  }
  // Most rows have no problem: the list is made on the first one.
  let problems: RowProblem[] | null = null;
  let readError = raw.problem;
  if (!readError) {
    for (let k = plan.width; k < cells.length; k++) if (!blank(cells[k])) { readError = 'tooManyCells'; break; }
  }
  if (!readError) {
    for (let k = 0; k < cells.length; k++) if (cells[k].length > ctx.maxCellChars) { readError = 'cellTooLong'; break; }
  }
  if (readError) {
    return { row: raw.row, phone: null, variables: {}, result: 'error', problems: [{ code: readError }], send: false, cells, entered: cells[plan.phone] ?? '' };
  }

  let failed = false;
  let warned = ctx.encodingWarning;
  if (warned) (problems ??= []).push({ code: 'undecidedEncoding' });
  const phoneCell = cells[plan.phone] ?? '';
  let judged = NO_PROBLEM;
  let national: number;
  if (plainMobile(phoneCell)) {
    national = Number(phoneCell);
  } else {
    judged = judgePhone(phoneCell, ctx.allowFixedLines);
    national = judged.phone ? Number(judged.phone.slice(3)) : 0;
  }
  const phoneColumn = plan.hasHeader ? plan.phoneName : undefined;
  if (judged.code) {
    failed = true;
    (problems ??= []).push(phoneColumn ? { code: judged.code, column: phoneColumn } : { code: judged.code });
    if (judged.fixedLine) (problems ??= []).push(phoneColumn ? { code: 'fixedLine', column: phoneColumn } : { code: 'fixedLine' });
  } else if (judged.normalized) {
    warned = true;
    (problems ??= []).push(phoneColumn ? { code: 'phoneNormalized', column: phoneColumn } : { code: 'phoneNormalized' });
  }

  const variables: Record<string, string> = {};
  const planned = plan.variables;
  for (let k = 0; k < planned.length; k++) {
    const v = planned[k];
    const value = (cells[v.column] ?? '').trim();
    variables[v.name] = value;
    const column = plan.headers[v.column];
    if (value === '') {
      if (v.required) { failed = true; (problems ??= []).push({ code: 'requiredValue', column }); } else { warned = true; (problems ??= []).push({ code: 'emptyOptionalValue', column }); }
    } else if (v.url && !isHttpUrl(value)) {
      failed = true;
      (problems ??= []).push({ code: 'invalidUrl', column });
    }
  }

  for (const column of plan.kept) variables[plan.headers[column]] = (cells[column] ?? '').trim();

  let scheduleAt: string | undefined;
  if (plan.schedule >= 0) {
    const text = (cells[plan.schedule] ?? '').trim();
    if (text !== '') {
      const parsed = parseScheduleDate(text);
      const now = ctx.now.getTime();
      const past = parsed && (parsed.dateOnly ? parsed.at.getTime() + DAY_MS <= now : parsed.at.getTime() < now);
      if (!parsed || past) { failed = true; (problems ??= []).push({ code: 'invalidScheduleDate', column: plan.scheduleName! }); } else scheduleAt = parsed.at.toISOString();
    }
  }

  const phone = national && !judged.code ? (judged.phone ?? `+57${phoneCell}`) : null;
  const result: RowResult = { row: raw.row, phone, variables, result: failed ? 'fail' : warned ? 'warn' : 'pass', problems: problems ?? NO_PROBLEMS, send: !failed };
  if (scheduleAt) result.scheduleAt = scheduleAt;
  if (result.result !== 'pass') result.entered = phoneCell;
  if (failed) { result.cells = cells; return result; }
  const first = ctx.seen.add(national, raw.row);
  if (first) {
    result.result = 'warn';
    result.entered = phoneCell;
    result.send = false;
    result.duplicateOf = first;
    result.problems = [...(problems ?? []), phoneColumn ? { code: 'duplicatePhone', column: phoneColumn } : { code: 'duplicatePhone' }];
  }
  return result;
}
