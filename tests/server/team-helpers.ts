// Helpers for the company-administration tests: demo users by e-mail name, adding a team member
// through the API, and a member setting their password with the e-mailed code (as a person would).
import { demoEmail, demoOtherCompany } from '../../src/server/db/demo-seed.ts';
import type { Harness } from './harness.ts';

/** The password members set in tests after their invitation code. */
export const MEMBER_PASSWORD = 'Miembro#2025x';

let phoneSeq = 3150000000;
let emailSeq = 0;

/** A valid create body with a fresh e-mail and phone. */
export function memberBody(overrides: Record<string, unknown> = {}) {
  emailSeq += 1;
  return {
    name: `Miembro ${emailSeq}`,
    documentType: 'CC',
    documentId: String(10200300 + emailSeq),
    email: `miembro${emailSeq}.${process.pid}@demo.colibri.co`,
    phone: String(phoneSeq++),
    address: 'Carrera 7 # 72-41, Bogotá',
    roleIds: [] as number[],
    otpMethod: 'email',
    ...overrides,
  };
}

export async function roleIdByName(h: Harness, name: string, companyId: number | null = null): Promise<number> {
  let q = h.db.selectFrom('roles').select('id').where('name', '=', name);
  q = companyId === null ? q.where('company_id', 'is', null) : q.where('company_id', '=', companyId);
  return (await q.executeTakeFirstOrThrow()).id;
}

export async function userIdByEmail(h: Harness, email: string): Promise<number> {
  return (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

export const demoUserId = (h: Harness, name: string) => userIdByEmail(h, demoEmail(name));

/** Signs in a user of the second demo company (Andina Logística) by role name. */
export const asOther = (h: Harness, user: 'superadmin' | 'analista') => h.signin(`${user}@${demoOtherCompany.domain}`);

/** Creates a member as `token` (roles by name) and answers the created record. */
export async function addMember(h: Harness, token: string, roles: string[], overrides: Record<string, unknown> = {}) {
  const roleIds = [];
  for (const r of roles) roleIds.push(await roleIdByName(h, r));
  const res = await h.op('team.create', { token, body: memberBody({ roleIds, ...overrides }) });
  if (res.statusCode !== 200) throw new Error(`team.create: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; email: string; state: string; roleIds: number[]; parentId: number | null };
}

/** The member sets their password with the invitation code and signs in. */
export async function activate(h: Harness, email: string) {
  const code = await h.lastCode(email);
  const res = await h.op('clientAuth.recoverPassword', { body: { email, code, password: MEMBER_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`recoverPassword: ${res.statusCode} ${res.body}`);
  return h.signin(email, MEMBER_PASSWORD);
}
