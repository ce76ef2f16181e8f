// A recipients file's judged rows as a page (the campaign's recipients tab, the provider's file
// processor): filtered by result, searched by number. A template campaign's rows are judged again
// against its parameters' columns (the file is read before the mapping exists): a blank cell of a
// mapped column makes the row not sendable, with that reason, as the launch refuses its message (131008).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import type { RecipientRow } from '../../../generated/types.gen.ts';
import { paginate, type ListQuery } from '../../http/paging.ts';

export async function recipientRowsPage(db: Kysely<Database>, fileId: number | null, query: ListQuery & { result?: RecipientRow['result'] }, mapped: readonly string[] = []) {
  const blank = (column: string) => sql<boolean>`coalesce(btrim(variables ->> ${column}), '') = ''`;
  const anyBlank = mapped.length ? sql<boolean>`(${sql.join(mapped.map(blank), sql` or `)})` : sql<boolean>`false`;
  let base = db.selectFrom('recipient_rows').selectAll().where('file_id', '=', fileId ?? 0);
  const wanted = query.result;
  if (wanted === 'fail') base = base.where((eb) => eb.or([eb('result', '=', 'fail'), eb.and([eb('result', 'in', ['pass', 'warn']), eb(anyBlank, '=', true)])]));
  else if (wanted === 'pass' || wanted === 'warn') base = base.where('result', '=', wanted).where(anyBlank, '=', false);
  else if (wanted) base = base.where('result', '=', wanted);
  const q = query.q?.replace(/\D/g, '');
  if (q) base = base.where('phone', 'like', `%${q}%`);
  return paginate(base, { ...query, q: undefined }, {
    sortable: { row: 'row_no' },
    defaultSort: { column: 'row_no', order: 'asc' },
    tieBreaker: 'row_no',
    search: [],
    map: (r): RecipientRow => {
      const empty = r.result === 'pass' || r.result === 'warn' ? mapped.filter((column) => !(r.variables[column] ?? '').trim()) : [];
      return {
        row: r.row_no, phone: r.phone, entered: r.entered, result: (empty.length ? 'fail' : r.result) as RecipientRow['result'],
        problems: [...r.problems.map((p) => ({ code: p.code, column: p.column ?? null })), ...empty.map((column) => ({ code: 'emptyTemplateParameter', column }))],
        variables: Object.entries(r.variables).map(([k, v]) => `${k}=${v}`).join('; '),
      };
    },
  });
}
