// The table of a list screen: a real <table> (screen readers, copy-paste) whose body renders only
// the rows in view plus a margin (@tanstack/react-virtual), with spacer rows above and below.
// Rows are fixed-height and memoised on their record, so scrolling through 100,000 rows costs a
// few dozen plain <tr> per frame. Rows not fetched yet show a placeholder until their page comes.
import { memo, useEffect, useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import TableSortLabel from '@mui/material/TableSortLabel';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { cellText } from '../cells/cells.tsx';
import { cellFor, cellKey, valueAt } from '../cells/registry.ts';
import type { ScreenColumn } from '../screen-types.ts';
import type { Row } from './paged-rows.ts';

export interface VirtualTableHandle { scrollToIndex(index: number): void }

export interface VirtualTableProps {
  columns: readonly ScreenColumn[];
  count: number;
  rowAt: (index: number) => Row | undefined;
  idOf: (row: Row) => unknown;
  rowHeight?: number;
  maxHeight?: number;
  /** Called with the first and last row index rendered (with the margin) and the first one in view. */
  onRange?: (first: number, last: number, top: number) => void;
  sort?: { field?: string; order: 'asc' | 'desc' };
  onSort?: (field: string) => void;
  selectable?: boolean;
  selected?: ReadonlySet<unknown>;
  onToggle?: (id: unknown) => void;
  onToggleAll?: () => void;
  allSelected?: boolean;
  someSelected?: boolean;
  /** The actions column's width (its buttons' labels); default 200. */
  actionsWidth?: number;
  /** What the header checkbox selects (the rows loaded, out of how many). */
  selectAllLabel?: string;
  actionsLabel?: string;
  renderActions?: (row: Row) => ReactNode;
  onOpen?: (row: Row) => void;
  handle?: Ref<VirtualTableHandle>;
  caption?: string;
}

const HEADER = 48;

/**
 * The width a column needs before its text is cut (its declared width, else by what it holds):
 * the table is at least the sum of them and scrolls sideways on a narrow screen (1280 px with the
 * side menu) instead of truncating every column to an equal share.
 */
export function columnMinWidth(c: Pick<ScreenColumn, 'field' | 'width' | 'cell' | 'schema'>): number {
  if (c.width) return c.width;
  const s = c.schema as { type?: unknown; format?: unknown };
  const cell = c.cell;
  if (s.format === 'date-time' || cell === 'datetime') return 180;
  if (s.format === 'date' || cell === 'date') return 120;
  if (s.format === 'email' || /email/i.test(c.field)) return 240;
  if (s.type === 'array' || cell === 'roles' || cell === 'chips') return 220;
  if (cell === 'cop') return 140;
  if (s.type === 'integer' || s.type === 'number' || cell === 'integer') return 110;
  if (s.type === 'boolean' || cell === 'boolean') return 100;
  return 160;
}

/** The table's least width: every column's, the selection box and the actions. */
export const tableMinWidth = (columns: readonly Pick<ScreenColumn, 'field' | 'width' | 'cell' | 'schema'>[], selectable: boolean, actionsWidth: number) =>
  columns.reduce((sum, c) => sum + columnMinWidth(c), 0) + (selectable ? 48 : 0) + actionsWidth;
// happy-dom (tests) measures every element as 0×0: fall back to a screen-sized window.
const FALLBACK = { width: 1200, height: 720 };

function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK));
}

interface RowViewProps {
  row: Row | undefined;
  index: number;
  columns: readonly ScreenColumn[];
  height: number;
  selectable: boolean;
  checked: boolean;
  onToggle?: (id: unknown) => void;
  id: unknown;
  renderActions?: (row: Row) => ReactNode;
  onOpen?: (row: Row) => void;
  selectLabel: string;
}

const RowView = memo(function RowView({ row, index, columns, height, selectable, checked, onToggle, id, renderActions, onOpen, selectLabel }: RowViewProps) {
  const { t, i18n } = useTranslation();
  const span = columns.length + (selectable ? 1 : 0) + (renderActions ? 1 : 0);
  if (!row) {
    return (
      <tr aria-rowindex={index + 2} style={{ height }} data-loading="true">
        <td colSpan={span}>
          <Box sx={{ height: 12, width: '60%', borderRadius: 1, bgcolor: 'action.hover' }} />
        </td>
      </tr>
    );
  }
  return (
    <tr
      aria-rowindex={index + 2}
      style={{ height }}
      className={onOpen ? 'openable' : undefined}
      tabIndex={onOpen ? 0 : undefined}
      onClick={onOpen ? (e) => !(e.target as HTMLElement).closest('button, a, input, label') && onOpen(row) : undefined}
      onKeyDown={onOpen ? (e) => e.key === 'Enter' && e.target === e.currentTarget && onOpen(row) : undefined}
    >
      {selectable && (
        <td className="select">
          <Checkbox size="small" checked={checked} onChange={() => onToggle?.(id)} slotProps={{ input: { 'aria-label': selectLabel } }} />
        </td>
      )}
      {columns.map((c) => {
        const Cell = cellFor(c);
        const value = valueAt(row, c.field);
        // The tooltip of a cut-off cell repeats what the cell shows ("Activa", "2026/11/25 5:36pm"),
        // never the stored value ("active", an ISO timestamp): a person reads words, not codes.
        const title = typeof value === 'string' ? cellText(t, (k) => i18n.exists(k), cellKey(c), value, c) : undefined;
        return (
          <td key={c.field} title={title}>
            <Cell value={value} row={row} column={c} />
          </td>
        );
      })}
      {renderActions && <td className="actions">{renderActions(row)}</td>}
    </tr>
  );
});

export function VirtualTable(props: VirtualTableProps) {
  const { t } = useTranslation();
  const { columns, count, rowAt, idOf, rowHeight = 48, maxHeight = 640, selectable = false, selected, renderActions, actionsWidth = 200 } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    initialRect: FALLBACK,
    observeElementRect: observeRect,
  });
  useImperativeHandle(props.handle, () => ({ scrollToIndex: (index: number) => virtualizer.scrollToIndex(index, { align: 'start' }) }), [virtualizer]);

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  const top = virtualizer.range?.startIndex ?? first;
  const onRange = props.onRange;
  useEffect(() => {
    if (last >= first) onRange?.(first, last, top);
  }, [first, last, top, onRange]);

  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const height = Math.min(maxHeight, HEADER + Math.max(count, 1) * rowHeight + 2);
  const span = columns.length + (selectable ? 1 : 0) + (renderActions ? 1 : 0);

  // A table with nothing to focus in it (no openable rows, checkboxes or actions) still scrolls:
  // its scroller takes the focus itself, so the keyboard can scroll it (axe scrollable-region-focusable).
  const nothingFocusable = !props.onOpen && !selectable && !renderActions;

  return (
    <Box
      ref={scroller}
      tabIndex={nothingFocusable ? 0 : undefined}
      sx={{
        height,
        overflow: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        contain: 'strict',
        '& table': { width: '100%', borderCollapse: 'separate', borderSpacing: 0, tableLayout: 'fixed', fontSize: '0.875rem' },
        '& th': { position: 'sticky', top: 0, zIndex: 1, bgcolor: 'background.paper', textAlign: 'left', fontWeight: 600, height: HEADER, px: 1.5, borderBottom: 1, borderColor: 'divider', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
        '& td': { px: 1.5, borderBottom: 1, borderColor: 'divider', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
        '& td.select, & th.select': { width: 48, px: 0.5 },
        // The actions stay in view at the right edge however wide the record's columns are.
        '& td.actions, & th.actions': { width: 'auto', textAlign: 'right', position: 'sticky', right: 0, bgcolor: 'background.paper', boxShadow: (th) => `-1px 0 0 ${th.palette.divider}` },
        '& th.actions': { zIndex: 2 },
        '& tr.openable': { cursor: 'pointer' },
        '& .row-actions': { display: 'inline-flex', gap: 0.5 },
        '& button.row-action': { font: 'inherit', fontWeight: 500, fontSize: '0.8125rem', textTransform: 'uppercase', color: 'primary.main', bgcolor: 'transparent', border: 0, borderRadius: 1, px: 1, py: 0.5, cursor: 'pointer' },
        '& button.row-action.danger': { color: 'error.main' },
        '& button.row-action.more': { fontSize: '1.1rem', lineHeight: 1, px: 1.25 },
        '& button.row-action:hover, & button.row-action:focus-visible': { bgcolor: 'action.hover' },
        '& button.row-action:disabled': { color: 'text.disabled', cursor: 'default' },
        '& tr.openable:hover, & tr.openable:focus-visible': { bgcolor: 'action.hover', outline: 'none' },
      }}
    >
      <table aria-rowcount={count + 1} aria-label={props.caption} style={{ minWidth: tableMinWidth(columns, selectable, renderActions ? actionsWidth : 0) }}>
        <colgroup>
          {selectable && <col style={{ width: 48 }} />}
          {columns.map((c) => (
            <col key={c.field} style={{ width: columnMinWidth(c) }} />
          ))}
          {renderActions && <col style={{ width: actionsWidth }} />}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {selectable && (
              <th className="select">
                <Checkbox size="small" checked={!!props.allSelected} indeterminate={!props.allSelected && !!props.someSelected} onChange={() => props.onToggleAll?.()} slotProps={{ input: { 'aria-label': props.selectAllLabel ?? t('common.list.selectAll') } }} />
              </th>
            )}
            {columns.map((c) => (
              <th key={c.field} scope="col" aria-sort={props.sort?.field === c.field ? (props.sort.order === 'asc' ? 'ascending' : 'descending') : undefined}>
                {c.sortable && props.onSort ? (
                  <TableSortLabel active={props.sort?.field === c.field} direction={props.sort?.field === c.field ? props.sort.order : 'asc'} onClick={() => props.onSort!(c.field)}>
                    {t(c.label)}
                  </TableSortLabel>
                ) : (
                  t(c.label)
                )}
              </th>
            ))}
            {renderActions && (
              <th className="actions" scope="col">
                {props.actionsLabel ?? t('common.actions')}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true" style={{ height: padTop }}>
              <td colSpan={span} style={{ padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((v) => {
            const row = rowAt(v.index);
            const id = row ? idOf(row) : undefined;
            return (
              <RowView
                key={v.index}
                row={row}
                index={v.index}
                columns={columns}
                height={rowHeight}
                selectable={selectable}
                checked={id !== undefined && !!selected?.has(id)}
                onToggle={props.onToggle}
                id={id}
                renderActions={renderActions}
                onOpen={props.onOpen}
                selectLabel={t('common.list.selectRow')}
              />
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true" style={{ height: padBottom }}>
              <td colSpan={span} style={{ padding: 0, border: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </Box>
  );
}
