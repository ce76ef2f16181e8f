// Who may use the provider's FTP queries tool, and which companies they read. The menu entry
// (smsPlatformTools.ftpQueries) has no component id, so no grant names it (the operations declare
// the company's own FTP report's, 6004 view): the server asks the entry's own rule too, as the
// console does to draw it (roles platform or develop, with the {product}Sms flag), and then the
// staff rule of auth/staff.ts for the company.
import { nodeKeyAllows } from '../../../core/permissions.ts';
import { appSettings } from '../../../generated/app.gen.ts';
import type { Session } from '../../context.ts';
import { isStaff, toolCompany } from '../../auth/staff.ts';
import { fail } from '../../errors/api-error.ts';

const TOOL_NODE = 'smsPlatformTools.ftpQueries';

/**
 * The company the caller reads, or null for every company (staff who name none). Refuses (99982)
 * anyone the menu entry is not for, and anyone but staff naming another company, before anything
 * is read.
 */
export function ftpToolScope(me: Session, companyId: number | undefined): number | null {
  if (!nodeKeyAllows(TOOL_NODE, { roles: me.roles, productKey: appSettings.product.key })) throw fail('99982');
  if (companyId === undefined && isStaff(me)) return null;
  return toolCompany(me, companyId);
}
