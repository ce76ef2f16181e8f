// Display formats: COP money (1 credit = 1 COP, spec 1), integers and percentages in the reader's
// language (Spanish: 1.006.480 and 95,5 %, es-CO; English: 1,006,480 and 95.5%, en-US), and the
// spec's date format YYYY/MM/DD h:mma (spec 9) in both. The app's i18n instance sets the language
// (setNumberLanguage on every language change), so what a screen renders follows it.
const NUMBER_LOCALES: Readonly<Record<string, string>> = { es: 'es-CO', en: 'en-US' };

function formattersFor(locale: string) {
  return {
    locale,
    cop: new Intl.NumberFormat(locale, { style: 'currency', currency: 'COP', maximumFractionDigits: 0 }),
    integer: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }),
  };
}

let formatters = formattersFor(NUMBER_LOCALES.es);

/** Numbers from now on in `language`'s way (an unknown language: Spanish, the default). */
export function setNumberLanguage(language: string): void {
  const locale = NUMBER_LOCALES[language.split('-')[0]] ?? NUMBER_LOCALES.es;
  if (locale !== formatters.locale) formatters = formattersFor(locale);
}

export function formatCop(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) ? formatters.cop.format(n) : '—';
}

export function formatInteger(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) ? formatters.integer.format(n) : '—';
}

/** The step of a percentage written with one decimal: 0.1 % as a fraction. */
const PERCENT_STEP = 0.001;

/**
 * A fraction from 0 to 1 as a percentage (0.955 → "95,5 %"); none yet (null) → "—". A fraction
 * strictly between 0 and 1 never reads as 0 % or 100 %: 16 failures among 50,000 deliveries are
 * "99,9 %", not a rounded "100 %" beside the failures.
 */
export function formatPercent(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  const shown = n > 0 && n < PERCENT_STEP ? PERCENT_STEP : n < 1 && n > 1 - PERCENT_STEP ? Math.floor(n / PERCENT_STEP) * PERCENT_STEP : n;
  return formatters.percent.format(shown);
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
