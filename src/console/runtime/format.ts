// Display formats: COP money in es-CO (1 credit = 1 COP, spec 1), integers, and the spec's date
// format YYYY/MM/DD h:mma (spec 9).
const cop = new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', maximumFractionDigits: 0 });
const integer = new Intl.NumberFormat('es-CO', { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('es-CO', { style: 'percent', maximumFractionDigits: 1 });

export function formatCop(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) ? cop.format(n) : '—';
}

export function formatInteger(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) ? integer.format(n) : '—';
}

/** A fraction from 0 to 1 as a percentage (0.955 → "95,5 %"); none yet (null) → "—". */
export function formatPercent(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = Number(value);
  return Number.isFinite(n) ? percent.format(n) : '—';
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string' && !(value instanceof Date)) return '—';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const h = d.getHours() % 12 || 12;
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${h}:${pad(d.getMinutes())}${d.getHours() < 12 ? 'am' : 'pm'}`;
}

/** A calendar date (YYYY-MM-DD, or a timestamp) as YYYY/MM/DD; a bare date is not moved across time zones. */
export function formatDate(value: unknown): string {
  if (typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (m) return `${m[1]}/${m[2]}/${m[3]}`;
  }
  if (typeof value !== 'string' && !(value instanceof Date)) return '—';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`;
}

export function formatValue(value: unknown, format: string | undefined): string {
  switch (format) {
    case 'cop':
      return formatCop(value);
    case 'integer':
      return formatInteger(value);
    case 'percent':
      return formatPercent(value);
    case 'datetime':
      return formatDateTime(value);
    case 'date':
      return formatDate(value);
    default:
      return value === undefined || value === null ? '—' : String(value);
  }
}
