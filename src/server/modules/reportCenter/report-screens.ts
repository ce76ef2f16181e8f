// Any report screen of the console can be scheduled (report type 3): the schedule keeps the
// screen's id and the operation body its filters made; each run asks the screen's own operation
// for the days it covers — through the server's routes, as the person who saved the schedule (a
// token of theirs for the one request, revoked after it), so their permissions and company scope
// apply as on the screen — and writes the screen's table (its declared columns, in their words) as
// a CSV file. The screen declarations are the console's generated ones (config/screens/*.yaml),
// loaded the first time a schedule needs them.
import type { ExpressionBuilder, Kysely } from 'kysely';
import { csvSeparatorFor, toCsv } from '../../../core/export-safety.ts';
import { isSchedulableReport } from '../../../core/report-schedulable.ts';
import { formatYmd, calendarDateOf, wallTimeOf } from '../../../core/bogota-time.ts';
import type { Database } from '../../../engine/database.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { operations } from '../../../generated/operations.gen.ts';
import type { ReportType } from '../../../generated/enums.gen.ts';
import { jsonValue } from '../../../engine/tables/index.ts';
import type { ScreenCall, ScreenRunner } from '../../../core/ports/screen-runner.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { storedLanguage, wordsFor, type DocumentLanguage, type Words } from '../../i18n/document-words.ts';
import type { FileParams } from './report-file-sources.ts';

/** The report type of a report screen's table: made by its schedule only (generateReport refuses it). */
export const SCREEN_REPORT_TYPE = 3 as const satisfies ReportType;

const TIME_ZONE = constants.sendWindow.timeZone;
/** A file a process took and did not finish in this time (it stopped) is taken again. */
const CLAIM_MS = 10 * 60_000;

/** What a screen file was asked for: the days it covers, and the screen and body of its schedule. */
export interface ScreenFileParams extends FileParams { screen: string; payload: Record<string, unknown> }

interface ScreenColumn { field: string; label: string; cell?: string; enum?: string; schema?: { 'x-enum'?: string; format?: string } }

/** What a scheduled run needs of a report screen's declaration. */
export interface SchedulableScreen {
  id: string;
  operationId: string;
  method: string;
  path: string;
  itemsPath: string | undefined;
  columns: readonly ScreenColumn[];
  /** The body fields the screen fills from its date range (`$f.range.start` / `$f.range.end`), when it has one. */
  range: { start: string; end: string } | null;
}

let loaded: Promise<ReadonlyMap<string, SchedulableScreen>> | null = null;

/** The report screens a schedule may name: kind report, with an operation and a table. */
export function schedulableScreens(): Promise<ReadonlyMap<string, SchedulableScreen>> {
  loaded ??= import('../../../generated/screens.gen.ts').then(({ screens }) => {
    const out = new Map<string, SchedulableScreen>();
    for (const screen of Object.values(screens) as unknown as Record<string, unknown>[]) {
      const operation = operations.find((o) => o.id === screen.operation);
      const columns = screen.columns as ScreenColumn[] | undefined;
      if (!operation || !columns || !isSchedulableReport({ kind: screen.kind as string, columns }, operation.permission)) continue;
      const payload = (screen.payload ?? {}) as Record<string, unknown>;
      const fieldOf = (expression: string) => Object.keys(payload).find((k) => payload[k] === expression);
      const start = fieldOf('$f.range.start');
      const end = fieldOf('$f.range.end');
      out.set(screen.id as string, {
        id: screen.id as string, operationId: operation.id, method: operation.method, path: operation.path, itemsPath: screen.itemsPath as string | undefined,
        columns, range: start && end ? { start, end } : null,
      });
    }
    return out;
  });
  return loaded;
}


/** The screen's body for the days a run covers (the stored body, its date range replaced). */
export function screenBody(screen: SchedulableScreen, payload: Record<string, unknown>, days: { dateStart: string; dateEnd: string }): Record<string, unknown> {
  return screen.range ? { ...payload, [screen.range.start]: days.dateStart, [screen.range.end]: days.dateEnd } : { ...payload };
}

/** Asks the screen's operation; a refusal comes back as the operation's own catalogue answer. */
export async function askScreen(run: ScreenRunner, screen: SchedulableScreen, call: Omit<ScreenCall, 'method' | 'path'>): Promise<{ ok: true; json: unknown } | { ok: false; status: number; json: unknown }> {
  const answer = await run({ ...call, method: screen.method, path: screen.path });
  return answer.status === 200 ? { ok: true, json: answer.json } : { ok: false, status: answer.status, json: answer.json };
}

const pick = (value: unknown, path: string | undefined): unknown =>
  (path ? path.split('.') : []).reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);

const two = (n: number) => String(n).padStart(2, '0');
const bogotaStamp = (at: Date): string => {
  const w = wallTimeOf(at, TIME_ZONE);
  return `${formatYmd(w)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
};

/** A column's title in the file's language: the screen's own words (fields.json or screens.json). */
function titleOf(column: ScreenColumn, words: Words): string {
  const [catalogue, ...rest] = column.label.split('.');
  const key = rest.join('.');
  return catalogue === 'fields' ? words.fieldTitle(key) : catalogue === 'screens' ? words.screenText(key) : column.label;
}

/** A cell as the screen shows it: an enum by its label, a number as a number, an instant in Bogotá. */
function cellOf(column: ScreenColumn, value: unknown, words: Words): unknown {
  if (value === null || value === undefined) return '';
  const enumId = column.enum ?? column.schema?.['x-enum'];
  if (enumId && (typeof value === 'string' || typeof value === 'number')) return words.enumLabel(enumId, value);
  if (Array.isArray(value)) return value.map((v) => (enumId ? words.enumLabel(enumId, v as string) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  // An instant as the report files write it: Bogotá's wall time.
  if ((column.cell === 'datetime' || column.schema?.format === 'date-time') && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return bogotaStamp(new Date(value));
  return value;
}

/** The screen's table of an answer: its header and one line per item, as CSV in the file's language. */
export function screenTable(screen: SchedulableScreen, answer: unknown, language: DocumentLanguage): { text: string; rows: number } {
  const words = wordsFor(language);
  const picked = pick(answer, screen.itemsPath);
  const items = Array.isArray(picked) ? picked.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object') : picked && typeof picked === 'object' ? [picked as Record<string, unknown>] : [];
  const text = toCsv(screen.columns.map((c) => titleOf(c, words)), items.map((r) => screen.columns.map((c) => cellOf(c, r[c.field], words))), { separator: csvSeparatorFor(language) });
  return { text, rows: items.length };
}

/** The days a run covers as the screen's date range takes them (Bogotá days, the last included). */
export const coveredDays = (p: Pick<FileParams, 'from' | 'to'>): { dateStart: string; dateEnd: string } => ({
  dateStart: formatYmd(calendarDateOf(new Date(p.from), TIME_ZONE)),
  dateEnd: formatYmd(calendarDateOf(new Date(new Date(p.to).getTime() - 1), TIME_ZONE)),
});

/** Why a refused run failed, in the file's language: the catalogue's words for the operation's code and its problems. */
function refusalText(json: unknown, status: number, words: Words): string {
  const answer = (json ?? {}) as { code?: string; errors?: { field?: string; code?: string }[] };
  const lines = [answer.code ? `${answer.code}: ${words.errorText(answer.code) ?? ''}`.trim() : `HTTP ${status}`];
  for (const p of answer.errors ?? []) lines.push(`${p.field ?? ''} ${p.code ?? ''}: ${(p.code && words.errorText(p.code)) ?? ''}`.trim());
  return lines.join(' · ').slice(0, 500);
}

/**
 * Writes every screen file that waits (its schedule's run enlisted it): claimed by one process,
 * the screen's operation asked for the covered days as the schedule's author, the table written
 * whole, the file ready — or `error` with the operation's refusal in words. Answers how many.
 */
export async function writeScreenFiles(deps: { db: Kysely<Database>; now: () => Date; storage: FileStorage; run: ScreenRunner }): Promise<number> {
  let written = 0;
  for (;;) {
    const now = deps.now();
    const free = (w: ExpressionBuilder<Database, 'report_files'>) => w.and([
      w('report_type_id', '=', SCREEN_REPORT_TYPE), w('state', '=', 'enlist'),
      w.or([w('claimed_at', 'is', null), w('claimed_at', '<', new Date(now.getTime() - CLAIM_MS))]),
    ]);
    // Claimed by one process: the row is locked while it is taken, and taken only while still free.
    const file = await deps.db.updateTable('report_files').set({ claimed_at: now })
      .where('id', '=', (eb) => eb.selectFrom('report_files').select('id').where(free).orderBy('id').limit(1).forUpdate().skipLocked())
      .where(free)
      .returningAll().executeTakeFirst();
    if (!file) return written;
    written += 1;
    const params = jsonValue<ScreenFileParams>(file.params);
    const language = storedLanguage(file.language);
    const finish = (set: { state: 'ready' | 'error'; rows?: number; bytes?: number; error?: string }) =>
      deps.db.updateTable('report_files').set({ ...set, finished_at: deps.now() }).where('id', '=', file.id).where('claimed_at', '=', now).execute();
    try {
      const screen = (await schedulableScreens()).get(params.screen);
      if (!screen || file.requested_by === null) {
        await finish({ state: 'error', error: wordsFor(language).errorText('99931') ?? '99931' });
        continue;
      }
      const answer = await askScreen(deps.run, screen, { userId: file.requested_by, body: screenBody(screen, params.payload, params), language });
      if (!answer.ok) {
        await finish({ state: 'error', error: refusalText(answer.json, answer.status, wordsFor(language)) });
        continue;
      }
      const table = screenTable(screen, answer.json, language);
      const bytes = await deps.storage.writeAt(file.storage_key, 0, Buffer.from(table.text, 'utf8'));
      await finish({ state: 'ready', rows: table.rows, bytes });
    } catch (error) {
      await finish({ state: 'error', error: (error instanceof Error ? error.message : String(error)).slice(0, 500) });
    }
  }
}
