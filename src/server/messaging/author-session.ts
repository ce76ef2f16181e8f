// Background work done in a person's name (a recurring campaign's run, a file from the company's FTP
// folder): the session the launch sees is its author's, within the author's company, with no token
// and no roles of its own — the launch checks the campaign, not a permission of a request.
import type { Session } from '../context.ts';

export function authorSession(userId: number, companyId: number, now: Date): Session {
  return { tokenId: 0, userId, companyId, state: 'active', companyState: 'active', roles: [], grants: [], expiresAt: now };
}
