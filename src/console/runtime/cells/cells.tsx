// Table and detail cells: one small component per display type of the spec (text, integer, COP
// in es-CO, date and date-time as YYYY/MM/DD h:mma, yes/no, enum label, role chips, chips,
// masked secret, status chip, lines of text, a message's reason with its code). The registry (./registry.ts) picks one per column.
import type { CSSProperties, ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { serverErrors, whatsappErrors } from '../../../generated/errors.gen.ts';
import { formatCop, formatDate, formatDateTime, formatInteger, formatPercent } from '../format.ts';
import type { ScreenColumn } from '../screen-types.ts';

export interface CellProps { value: unknown; row: Record<string, unknown>; column: ScreenColumn }

const EMPTY = '—';
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The label of an enum value: enums.<enum id>.<value> when translated, else the value. */
export function enumLabel(t: TFunction, enumId: unknown, value: unknown, exists: (k: string) => boolean): string {
  const key = `enums.${String(enumId)}.${String(value)}`;
  return typeof enumId === 'string' && exists(key) ? t(key) : String(value);
}

/** The text a cell shows, for exports and screen readers alike. */
export function cellText(t: TFunction, exists: (k: string) => boolean, key: string, value: unknown, column: ScreenColumn): string {
  if (isEmpty(value)) return key === 'boolean' && value === false ? t('common.no') : EMPTY;
  const enumId = column.schema['x-enum'] ?? (column.schema.items as Record<string, unknown> | undefined)?.['x-enum'];
  switch (key) {
    case 'integer':
      return formatInteger(value);
    case 'cop':
      return formatCop(value);
    case 'percent':
      return formatPercent(value);
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDateTime(value);
    case 'boolean':
      return t(value ? 'common.yes' : 'common.no');
    case 'enum':
    case 'status':
      return enumLabel(t, enumId, value, exists);
    case 'roles':
      return (value as unknown[]).map((v) => enumLabel(t, enumId ?? 'role', v, exists)).join(', ');
    case 'chips':
      return (value as unknown[]).map((v) => enumLabel(t, enumId, v, exists)).join(', ');
    case 'secret':
      return maskedSecret(value);
    case 'whatsappCode': {
      // A WhatsApp (Meta) error code with its meaning from the catalogue (which names the code, or it is put first).
      const code = String(value);
      const entry = (whatsappErrors as Record<string, { key: string } | undefined>)[code];
      const words = entry ? t(entry.key) : '';
      return !words ? code : words.includes(code) ? words : `${code} · ${words}`;
    }
    case 'errorCode': {
      // A catalogue code (a refused file's reason) in words, then the code: the server's, or the file processor's.
      const code = String(value);
      const entry = (serverErrors as Record<string, { key: string } | undefined>)[code];
      const key = entry?.key ?? (exists(`errors.fileProcessor.${code}`) ? `errors.fileProcessor.${code}` : null);
      return key ? `${t(key)} (${code})` : code;
    }
    case 'lines': {
      // Lines of date-times (a recurring campaign's next runs) read as dates, each on its own line.
      const items = column.schema.items as Record<string, unknown> | undefined;
      return (value as unknown[]).map((v) => (items?.format === 'date-time' ? formatDateTime(v) : v)).join('\n');
    }
    case 'recurrence':
      return recurrenceText(t, value as RecurrenceValue);
    case 'screenTitle':
      // A console screen by its title (a scheduled report's screen); an id the console does not have, as written.
      return exists(`screens.${String(value)}.title`) ? t(`screens.${String(value)}.title`) : String(value);
    case 'bubbles':
      return (value as unknown[]).join('\n');
    case 'reason':
      return reasonText(t, exists, value as MessageReasonValue);
    case 'rejections':
      // Exported and read aloud as "row 3: value (reason)", one per line.
      return (value as { position: number; value: string; reason: string }[]).map((r) => `${t('common.upload.row')} ${r.position}: ${r.value} (${enumLabel(t, enumId, r.reason, exists)})`).join('\n');
    case 'rowProblems':
      return (value as RowProblemValue[]).map((p) => rowProblemText(t, exists, p)).join('; ') || EMPTY;
    case 'progress':
      return Object.entries(value as Record<string, unknown>).filter(([, n]) => typeof n === 'number' && n > 0).map(([k, n]) => `${exists(`fields.${k}`) ? t(`fields.${k}`) : k} ${formatInteger(n)}`).join(' · ') || EMPTY;
    default:
      return Array.isArray(value) ? value.join(', ') : String(value);
  }
}

interface RecurrenceValue { every: number; unit: string; starts: string; ends?: string | null; expires?: string | null }

/** A campaign's recurrence rule in words: "Cada 2 semanas desde el …, hasta el …, vence el …" (i18next plurals by `every`). */
function recurrenceText(t: TFunction, rule: RecurrenceValue): string {
  const parts = [t(`common.recurrence.${rule.unit}`, { count: rule.every }), t('common.recurrence.starts', { at: formatDateTime(rule.starts) })];
  if (rule.ends) parts.push(t('common.recurrence.ends', { at: formatDateTime(rule.ends) }));
  if (rule.expires) parts.push(t('common.recurrence.expires', { at: formatDateTime(rule.expires) }));
  return parts.join(', ');
}

/** Why a message did not go (engine/lifecycle/message-reason.ts): the words, then the code. */
export interface MessageReasonValue { kind: string; code: string; hours: number | null; until: string | null }

/** "Duplicado: ya se envió en las últimas 24 horas (93)": enums.message-reason.<kind>, or the sms-state label for `status`. */
export function reasonText(t: TFunction, exists: (k: string) => boolean, v: MessageReasonValue): string {
  const words = v.kind === 'status'
    ? enumLabel(t, 'sms-state', v.code, exists)
    : t(`enums.message-reason.${v.kind}`, { hours: v.hours ?? '', until: v.until ? formatDateTime(v.until) : '' });
  return `${words} (${v.code})`;
}

/** A recipients-file row's problem (engine/recipients/types.ts): a catalogue code or a reader notice, with its column. */
export interface RowProblemValue { code: string; column: string | null }

/** "Teléfono no válido (telefono)": errors.fileProcessor.<code> or errors.rowNotice.<code>, never the code alone. */
export function rowProblemText(t: TFunction, exists: (k: string) => boolean, p: RowProblemValue): string {
  const key = [`errors.fileProcessor.${p.code}`, `errors.rowNotice.${p.code}`].find(exists);
  const words = key ? t(key) : t('errors.rowNotice.other');
  return p.column ? `${words} (${p.column})` : words;
}

/** Secrets are never shown: the mask, with the last four characters of a long value. */
export function maskedSecret(value: unknown): string {
  const text = String(value ?? '');
  if (text.startsWith('••••')) return text;
  return text.length >= 12 ? `••••${text.slice(-4)}` : '••••';
}

function useText(key: string, { value, column }: CellProps): string {
  const { t, i18n } = useTranslation();
  return cellText(t, (k) => i18n.exists(k), key, value, column);
}

export const TextCell = (p: CellProps) => <>{useText('text', p)}</>;
export const IntegerCell = (p: CellProps) => <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>{useText('integer', p)}</Box>;
export const CopCell = (p: CellProps) => <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{useText('cop', p)}</Box>;
export const PercentCell = (p: CellProps) => <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{useText('percent', p)}</Box>;
export const DateCell = (p: CellProps) => <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{useText('date', p)}</Box>;
export const DateTimeCell = (p: CellProps) => <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{useText('datetime', p)}</Box>;
export const EnumCell = (p: CellProps) => <>{useText('enum', p)}</>;
export const WhatsAppCodeCell = (p: CellProps) => <>{useText('whatsappCode', p)}</>;
export const ErrorCodeCell = (p: CellProps) => <>{useText('errorCode', p)}</>;
export const ReasonCell = (p: CellProps) => <>{useText('reason', p)}</>;
export const RecurrenceCell = (p: CellProps) => <>{useText('recurrence', p)}</>;
export const ScreenTitleCell = (p: CellProps) => <>{useText('screenTitle', p)}</>;
export const RowProblemsCell = (p: CellProps) => <>{useText('rowProblems', p)}</>;
/** A list of texts, one per line (a summary's rendered messages). */
export const LinesCell = (p: CellProps) => (
  <Box component="span" sx={{ whiteSpace: 'pre-wrap', display: 'block' }}>{useText('lines', p)}</Box>
);

/** JSON text (a certificate's signed statement), indented to be read; a value that is not JSON shows as written. */
export function JsonCell({ value }: CellProps) {
  if (value === undefined || value === null || value === '') return <>—</>;
  let shown = String(value);
  try {
    shown = JSON.stringify(JSON.parse(shown), null, 2);
  } catch {
    // not JSON: shown as it is
  }
  return (
    <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace', fontSize: 12 }}>
      {shown}
    </Box>
  );
}

export type TagColor = 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';

/**
 * A small label (role, state, yes/no). Plain <span>s with inline styles from the theme: a list
 * row mounts a handful of them per frame while scrolling, so they must cost next to nothing.
 */
export function Tag({ label, color = 'default', outlined = false, status }: { label: string; color?: TagColor; outlined?: boolean; status?: string }) {
  const theme = useTheme();
  const main = color === 'default' ? theme.palette.text.secondary : theme.palette[color].main;
  const style: CSSProperties = {
    display: 'inline-block', padding: '1px 8px', borderRadius: 12, fontSize: '0.75rem', lineHeight: '20px', whiteSpace: 'nowrap',
    border: `1px solid ${color === 'default' ? theme.palette.divider : main}`,
    color: outlined || color === 'default' ? main : theme.palette.getContrastText(main),
    background: outlined || color === 'default' ? (color === 'default' && !outlined ? theme.palette.action.selected : 'transparent') : main,
  };
  return (
    <span style={style} data-color={color} data-status={status}>
      {label}
    </span>
  );
}

export function BooleanCell(p: CellProps) {
  const text = useText('boolean', p);
  return <Tag label={text} color={p.value ? 'secondary' : 'default'} outlined={!p.value} />;
}

function ChipList({ labels }: { labels: string[] }): ReactNode {
  if (!labels.length) return EMPTY;
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
      {labels.map((l, i) => (
        <Tag key={`${l}-${i}`} label={l} />
      ))}
    </span>
  );
}

export function RoleChipsCell(p: CellProps) {
  const { t, i18n } = useTranslation();
  const enumId = (p.column.schema.items as Record<string, unknown> | undefined)?.['x-enum'] ?? 'role';
  const values = Array.isArray(p.value) ? p.value : [];
  return <ChipList labels={values.map((v) => enumLabel(t, enumId, v, (k) => i18n.exists(k)))} />;
}

export function ChipsCell(p: CellProps) {
  const { t, i18n } = useTranslation();
  const enumId = (p.column.schema.items as Record<string, unknown> | undefined)?.['x-enum'];
  const values = Array.isArray(p.value) ? p.value : [];
  return <ChipList labels={values.map((v) => enumLabel(t, enumId, v, (k) => i18n.exists(k)))} />;
}

export function SecretCell(p: CellProps) {
  const { t } = useTranslation();
  const text = useText('secret', p);
  return (
    <Box component="span" aria-label={t('common.secretHidden')} sx={{ fontFamily: 'monospace', letterSpacing: 1 }}>
      {text}
    </Box>
  );
}

/** Default colours for the states of the spec (user, company, report file, payment, message). */
const STATUS_COLORS: Record<string, TagColor> = {
  active: 'success', approved: 'success', accepted: 'success', delivered: 'success', ready: 'success', read: 'success', enabled: 'success', effective: 'success',
  pending: 'warning', validation: 'warning', needsNewPassword: 'warning', ExpiredPassword: 'warning', enlist: 'warning', sending: 'warning', scheduled: 'warning',
  disabled: 'error', rejected: 'error', failed: 'error', error: 'error', abandoned: 'error', blocked: 'error', revoked: 'error',
};

/** Colours of the counts a progress bar shows beyond the states above (messages of a run). */
const COUNT_COLORS: Record<string, TagColor> = { sent: 'info', queued: 'warning', held: 'warning', cancelled: 'default', other: 'secondary' };

/** The colour of a state or a count: the status colours, then the message-count colours. */
export const statusColor = (key: string): TagColor => STATUS_COLORS[key] ?? COUNT_COLORS[key] ?? 'default';

export function StatusCell(p: CellProps) {
  const text = useText('status', p);
  if (isEmpty(p.value)) return <>{EMPTY}</>;
  const key = String(p.value);
  const color = (p.column.colors?.[key] as TagColor | undefined) ?? STATUS_COLORS[key] ?? 'default';
  return <Tag label={text} color={color} status={key} />;
}
