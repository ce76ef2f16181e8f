// The provider's staff: users holding the `platform` role, in whatever company. What staff may do
// across companies (the company administration, the SMS platform tools) asks this one rule; a
// company user naming another company is refused with 99982 before anything is read.
import type { Session } from './session.ts';
import { fail } from '../errors/api-error.ts';

export const STAFF_ROLE = 'platform';

export const isStaff = (me: Pick<Session, 'roles'>): boolean => me.roles.includes(STAFF_ROLE);

/** Refuses (99982) anyone but staff. */
export function assertStaff(me: Pick<Session, 'roles'>): void {
  if (!isStaff(me)) throw fail('99982');
}

/**
 * The company a platform tool works on: staff name any company (absent: their own); anyone else
 * works on their own company only, and naming another is refused with 99982.
 */
export function toolCompany(me: Pick<Session, 'roles' | 'companyId'>, companyId: number | undefined): number {
  if (companyId === undefined || companyId === me.companyId) return me.companyId;
  assertStaff(me);
  return companyId;
}
