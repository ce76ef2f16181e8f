// The header row of a recipients file and what each column is for: the phone, the message's
// variables ({{nombre}} matches "Nombre", "NOMBRE", "nombre " and "{{nombre}}"), an optional
// schedule column; everything else is ignored (listed in the summary). Whole-file problems are
// invalidHeaders (99955) naming the columns: a variable without a column, repeated headers, no
// phone column, or several that could be the phone.
import { looksLikeHeader } from '../../core/phone-list.ts';
import { invalidHeaders } from './errors.ts';

/** Case, accents, braces and space/underscore/dash differences do not matter. */
export function headerKey(h: string): string {
  return h.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/^[\s{]+|[\s}]+$/g, '').replace(/[\s_-]+/g, '_');
}

const PHONE_NAMES = new Set(['phone', 'telefono', 'celular', 'numero', 'movil', 'cel', 'tel', 'mobile', 'msisdn', 'whatsapp', 'phone_number', 'numero_celular', 'numero_telefono', 'numero_de_celular', 'numero_de_telefono', 'telefono_celular', 'telefono_movil']);
const SCHEDULE_NAMES = new Set(['fecha_envio', 'fecha_de_envio', 'fecha_programada', 'programacion', 'programado', 'schedule', 'schedule_date', 'send_at', 'fecha_hora_envio']);
const URL_NAME = /^(url|link|enlace|.*_url|url_.*|.*_link|link_.*)$/;

export interface ColumnPlan {
  hasHeader: boolean;
  headers: string[];
  phone: number;
  phoneName: string;
  /** Message variable name → column. */
  variables: { name: string; column: number; required: boolean; url: boolean }[];
  schedule: number;
  scheduleName: string | null;
  ignored: string[];
  /** Other columns whose values are kept as they are, under their header (keepColumns). */
  kept: number[];
  /** Columns a row may fill: past them a non-empty cell makes the row an error. */
  width: number;
}

export interface PlanOptions {
  variables: readonly string[];
  optionalVariables: readonly string[];
  phoneColumn: string | number | 'auto';
  scheduleColumn: string | null | 'auto';
  urlVariables: readonly string[] | 'auto';
  /** Keep every other column's value (unjudged) instead of ignoring it: a WhatsApp template's
   *  parameters are mapped to the file's columns after the upload. */
  keepColumns?: boolean;
}

/** Trailing empty headers (";;;" Excel leaves) are not columns. */
function trimTrailingEmpty(cells: string[]): string[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1].trim() === '') end--;
  return cells.slice(0, end);
}

/**
 * The plan for a file whose first non-blank row is `first`. A single cell with a digit in it is
 * a number-only file without a header (that row is data); anything else is a header row.
 */
export function planColumns(first: string[], o: PlanOptions): ColumnPlan {
  const cells = trimTrailingEmpty(first);
  const wanted = [...o.variables.map((name) => ({ name, required: true })), ...o.optionalVariables.map((name) => ({ name, required: false }))];
  if (cells.length === 1 && !looksLikeHeader(cells[0])) {
    if (wanted.length) throw invalidHeaders(`the file has no header row; the message needs the columns ${wanted.map((w) => w.name).join(', ')}`, wanted.map((w) => w.name));
    return { hasHeader: false, headers: [], phone: 0, phoneName: '', variables: [], schedule: -1, scheduleName: null, ignored: [], kept: [], width: 1 };
  }
  const headers = cells.map((h) => h.trim());
  const keys = headers.map(headerKey);
  const seen = new Map<string, string>();
  const repeated = new Set<string>();
  keys.forEach((k, i) => {
    if (k === '') return;
    if (seen.has(k)) { repeated.add(seen.get(k)!); repeated.add(headers[i]); } else seen.set(k, headers[i]);
  });
  if (repeated.size) throw invalidHeaders(`repeated columns: ${[...repeated].join(', ')}`, [...repeated]);
  const indexOf = (name: string) => keys.indexOf(headerKey(name));

  const missing = wanted.filter((w) => indexOf(w.name) < 0).map((w) => w.name);
  if (missing.length) throw invalidHeaders(`the message needs columns the file does not have: ${missing.join(', ')}`, missing);
  const variableKeys = new Set(wanted.map((w) => headerKey(w.name)));

  let phone: number;
  if (typeof o.phoneColumn === 'number') {
    phone = o.phoneColumn;
    if (phone < 0 || phone >= headers.length) throw invalidHeaders(`the file has no column ${phone + 1} for the phone`, []);
  } else if (o.phoneColumn !== 'auto') {
    phone = indexOf(o.phoneColumn);
    if (phone < 0) throw invalidHeaders(`the file has no column ${o.phoneColumn} for the phone`, [o.phoneColumn]);
  } else if (headers.length === 1 && !variableKeys.has(keys[0])) {
    // One column: it is the phone, whatever its header says.
    phone = 0;
  } else {
    const candidates = keys.map((k, i) => (PHONE_NAMES.has(k) && !variableKeys.has(k) ? i : -1)).filter((i) => i >= 0);
    if (candidates.length === 0) throw invalidHeaders('no phone column: name it phone, telefono, celular, numero or movil (or choose it)', ['phone']);
    if (candidates.length > 1) throw invalidHeaders(`several columns could be the phone: ${candidates.map((i) => headers[i]).join(', ')} (choose one)`, candidates.map((i) => headers[i]));
    phone = candidates[0];
  }
  if (variableKeys.has(keys[phone])) throw invalidHeaders(`the column ${headers[phone]} cannot be both the phone and a variable`, [headers[phone]]);

  const urlKeys = o.urlVariables === 'auto' ? null : new Set(o.urlVariables.map(headerKey));
  const variables = wanted.map((w) => {
    const key = headerKey(w.name);
    return { name: w.name, column: indexOf(w.name), required: w.required, url: urlKeys ? urlKeys.has(key) : URL_NAME.test(key) };
  });

  let schedule = -1;
  if (o.scheduleColumn === 'auto') schedule = keys.findIndex((k, i) => SCHEDULE_NAMES.has(k) && i !== phone && !variableKeys.has(k));
  else if (o.scheduleColumn !== null) {
    schedule = indexOf(o.scheduleColumn);
    if (schedule < 0) throw invalidHeaders(`the file has no column ${o.scheduleColumn} for the send date`, [o.scheduleColumn]);
  }
  const used = new Set([phone, schedule, ...variables.map((v) => v.column)]);
  const others = headers.flatMap((h, i) => (!used.has(i) && h !== '' ? [i] : []));
  const kept = o.keepColumns ? others : [];
  const ignored = o.keepColumns ? [] : others.map((i) => headers[i]);
  return { hasHeader: true, headers, phone, phoneName: headers[phone], variables, schedule, scheduleName: schedule >= 0 ? headers[schedule] : null, ignored, kept, width: first.length };
}
