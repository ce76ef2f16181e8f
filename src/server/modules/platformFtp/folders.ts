// The companies' FTP folders as the intake (messaging/ftp-intake.ts) last met them: one row per
// company whose API settings name an FTP host. The user and the password are read only as "set or
// not" in SQL, so they never reach this process's answer. A folder the last visit could not read
// carries the catalogue's 99983 in `code`, beside the error the visit met.
import { sql } from 'kysely';
import type { FtpFolder } from '../../../generated/types.gen.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { isoOrNull } from '../reportCenter/report-scope.ts';
import { ftpToolScope } from './access.ts';

/** The catalogue's FTP error (config/errors.yaml): a folder that could not be read. */
export const FTP_ERROR = '99983';
const DEFAULT_PORT = 21;

export async function ftpFolders(ctx: HandlerContext<'platformFtp.ftpFolders'>) {
  const f = ctx.query;
  const scope = ftpToolScope(caller(ctx), f.companyId);
  const filesIn = (state: string) => sql<string>`(select count(*) from ftp_imports i where i.company_id = s.company_id and i.state = ${state})`;
  let qb = ctx.deps.db
    .selectFrom('api_settings as s')
    .innerJoin('companies as c', 'c.id', 's.company_id')
    .select([
      's.company_id', 'c.name as company_name', 'c.state as company_state', 's.ftp_host', 's.ftp_port', 's.ftp_directory',
      's.ftp_visited_at', 's.ftp_next_visit_at', 's.ftp_encrypted', 's.ftp_last_error',
      sql<boolean>`(s.ftp_user is not null and s.ftp_password is not null)`.as('complete'),
      filesIn('imported').as('imported'), filesIn('refused').as('refused'),
    ])
    .where('s.ftp_host', 'is not', null);
  if (scope !== null) qb = qb.where('s.company_id', '=', scope);
  return paginate(qb, f, {
    sortable: { companyName: 'c.name', visitedAt: 's.ftp_visited_at', nextVisitAt: 's.ftp_next_visit_at' },
    defaultSort: { column: 'c.name', order: 'asc' },
    tieBreaker: 's.company_id',
    search: ['c.name', 's.ftp_host'],
    map: (r): FtpFolder => ({
      companyId: r.company_id, companyName: r.company_name, companyState: r.company_state as FtpFolder['companyState'],
      host: r.ftp_host ?? '', port: r.ftp_port ?? DEFAULT_PORT, directory: r.ftp_directory ?? '/', configured: Boolean(r.complete),
      visitedAt: isoOrNull(r.ftp_visited_at), nextVisitAt: isoOrNull(r.ftp_next_visit_at), encrypted: r.ftp_encrypted,
      imported: Number(r.imported), refused: Number(r.refused),
      code: r.ftp_last_error === null ? null : FTP_ERROR, lastError: r.ftp_last_error,
    }),
  });
}
