// The provider's FTP queries tool (schemas/api/platform-ftp.yaml, /smsPlatformTools/FtpQueries):
// every company's FTP folder and the files the intake met, for the provider's staff; a develop
// user reads their own company's (access.ts).
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { ftpImportsBetween, ftpReportDays } from '../reportCenter/ftp-imports.ts';
import { ftpToolScope } from './access.ts';
import { ftpFolders } from './folders.ts';

export const platformFtpHandlers: DomainHandlers<'platformFtp'> = {
  'platformFtp.ftpFolders': ftpFolders,

  'platformFtp.ftpFiles': async (ctx) => {
    const scope = ftpToolScope(caller(ctx), ctx.body.companyId);
    const days = ftpReportDays(ctx.body, ctx.deps.now());
    return ftpImportsBetween(ctx.deps.db, scope, days);
  },
};
