// The cell registry: string keys (a column's `cell:` in the YAML) with ranked testers over the
// column's field schema, JSON Forms style. The highest rank wins; a key written in the YAML
// always wins. The choice is cached per column object (compiled columns are module constants).
import type { ComponentType } from 'react';
import { always, and, bestKey, formatIs, hasEnum, itemsAre, nameIs, NOT_APPLICABLE, or, rankWith, schemaTypeIs, xDisplayIs, xWidgetIs, type RankedEntry, type Tester } from '../form/testers.ts';
import type { ScreenColumn } from '../screen-types.ts';
import { ProgressCell } from './ProgressCell.tsx';
import { CopyCell } from './CopyCell.tsx';
import { RejectionsCell } from './RejectionsTable.tsx';
import { MessageBubbles } from './MessageBubbles.tsx';
import { BooleanCell, ChipsCell, CopCell, PercentCell, DateCell, DateTimeCell, EnumCell, IntegerCell, JsonCell, LinesCell, ReasonCell, RecurrenceCell, ScreenTitleCell, RowProblemsCell, RoleChipsCell, ErrorCodeCell, SecretCell, StatusCell, TextCell, WhatsAppCodeCell, type CellProps } from './cells.tsx';

const isSecret: Tester = (s) => s['x-secret'] === true || s.writeOnly === true;
const rolesEnum: Tester = (s) => s['x-enum'] === 'role';

export const cellEntries: RankedEntry<ComponentType<CellProps>>[] = [
  { key: 'text', tester: rankWith(1, always), component: TextCell },
  { key: 'integer', tester: rankWith(2, or(schemaTypeIs('integer'), schemaTypeIs('number'))), component: IntegerCell },
  { key: 'boolean', tester: rankWith(2, schemaTypeIs('boolean')), component: BooleanCell },
  { key: 'date', tester: rankWith(3, formatIs('date')), component: DateCell },
  { key: 'datetime', tester: rankWith(3, formatIs('date-time')), component: DateTimeCell },
  { key: 'enum', tester: rankWith(3, hasEnum), component: EnumCell },
  { key: 'chips', tester: rankWith(4, and(schemaTypeIs('array'), itemsAre(schemaTypeIs('string')))), component: ChipsCell },
  { key: 'status', tester: rankWith(4, and(hasEnum, or(nameIs('state'), nameIs('status')))), component: StatusCell },
  { key: 'percent', tester: rankWith(5, xDisplayIs('percent')), component: PercentCell },
  { key: 'cop', tester: rankWith(5, or(xDisplayIs('cop'), formatIs('cop'))), component: CopCell },
  { key: 'roles', tester: rankWith(6, and(schemaTypeIs('array'), or(nameIs('roles'), itemsAre(rolesEnum)))), component: RoleChipsCell },
  { key: 'status', tester: rankWith(6, xDisplayIs('status')), component: StatusCell },
  // A WhatsApp error code (`x-display: whatsappCode`) with its meaning in words.
  { key: 'whatsappCode', tester: rankWith(6, xDisplayIs('whatsappCode')), component: WhatsAppCodeCell },
  // A catalogue code (`x-display: errorCode`: a refused FTP file's reason) in words, with the code.
  { key: 'errorCode', tester: rankWith(6, xDisplayIs('errorCode')), component: ErrorCodeCell },
  { key: 'secret', tester: rankWith(8, or(isSecret, xDisplayIs('secret'), xWidgetIs('secret'))), component: SecretCell },
  // A message's reason in words with its code (x-display: reason); texts one per line (x-display: lines).
  { key: 'reason', tester: rankWith(7, xDisplayIs('reason')), component: ReasonCell },
  { key: 'lines', tester: rankWith(7, xDisplayIs('lines')), component: LinesCell },
  { key: 'json', tester: rankWith(7, xDisplayIs('json')), component: JsonCell },
  // Messages as the phone shows them ("number: text" samples, x-display: bubbles).
  { key: 'bubbles', tester: rankWith(7, xDisplayIs('bubbles')), component: MessageBubbles },
  // A recurring campaign's rule in words (x-display: recurrence).
  { key: 'recurrence', tester: rankWith(7, xDisplayIs('recurrence')), component: RecurrenceCell },
  { key: 'screenTitle', tester: rankWith(7, xDisplayIs('screenTitle')), component: ScreenTitleCell },
  // A recipients-file row's problems in words, with the column (x-display: rowProblems).
  { key: 'rowProblems', tester: rankWith(7, xDisplayIs('rowProblems')), component: RowProblemsCell },
  { key: 'rejections', tester: rankWith(7, xDisplayIs('rejections')), component: RejectionsCell },
  // A short link, wherever it shows (lists, result boxes, details): with its Copy button.
  { key: 'copy', tester: rankWith(7, or(nameIs('shortUrl'), xDisplayIs('copy'))), component: CopyCell },
  // Named only (`cell: progress`): an object of counts as one stacked bar.
  { key: 'progress', tester: () => NOT_APPLICABLE, component: ProgressCell },
];

export const cells: Record<string, ComponentType<CellProps>> = Object.fromEntries(cellEntries.map((e) => [e.key, e.component]));

const chosen = new WeakMap<ScreenColumn, string>();

/** The cell key for a column: the YAML's `cell`, else the best tester. */
export function cellKey(column: ScreenColumn): string {
  let key = chosen.get(column);
  if (!key) {
    key = column.cell && cells[column.cell] ? column.cell : (bestKey(cellEntries, column.schema, undefined, column.field.split('.').pop()!) ?? 'text');
    chosen.set(column, key);
  }
  return key;
}

export function cellFor(column: ScreenColumn): ComponentType<CellProps> {
  return cells[cellKey(column)];
}

/** A value inside a row by a dotted field ("company.name"). */
export function valueAt(row: Record<string, unknown>, field: string): unknown {
  let v: unknown = row;
  for (const part of field.split('.')) {
    if (v === null || v === undefined || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}
