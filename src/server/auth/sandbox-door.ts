// Who may open the sandbox's doors. The sandbox outbox holds every company's one-time codes, so
// in demo mode it must not be a way into accounts:
//   - the outbox needs a signed-in platform or develop session, from any address: a loopback peer
//     proves nothing, since behind a local proxy (nginx, ssh -L, socat) every outside client is
//     "this machine", and a company's own outbound call (a flow's integration step) comes from it;
//   - an operator may open it to this machine without a session with SANDBOX_OUTBOX_OPEN=true
//     (a loopback client no proxy header names someone else for);
//   - the other sandbox operations (a customer writing in through a channel's stand-in) stay open
//     to this machine; from elsewhere they need a platform or develop session;
//   - a develop user sees only their own company's mail; platform staff see all.
import type { FastifyRequest } from 'fastify';
import type { Session } from './session.ts';
import { fail } from '../errors/api-error.ts';
import { isStaff } from './staff.ts';

/** The roles that may use sandbox operations from another machine. */
export const sandboxRemoteRoles: readonly string[] = ['platform', 'develop'];

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * True when the request comes from this machine: the socket's peer is a loopback address and no
 * proxy header says it was forwarded for someone else (a reverse proxy on the same machine would
 * otherwise make every outside client look local).
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  const peer = request.socket?.remoteAddress ?? request.ip;
  if (!peer || !LOOPBACK.test(peer)) return false;
  const h = request.headers;
  return h['x-forwarded-for'] === undefined && h.forwarded === undefined && h['x-real-ip'] === undefined;
}

/**
 * Throws 99953 (no session) or 99982 (a session without a sandbox role) unless the caller may use
 * the operation: `openToMachine` lets a client of this machine in without a session.
 */
export function openSandboxDoor(request: FastifyRequest, session: Session | null, openToMachine: boolean): void {
  if (openToMachine && fromThisMachine(request)) return;
  if (!session) throw fail('99953');
  if (session.state !== 'active' || !session.roles.some((r) => sandboxRemoteRoles.includes(r))) throw fail('99982');
}

/** The company whose sandbox mail the caller may read; null means every company. */
export function sandboxCompanyScope(session: Session | null): number | null {
  if (!session || isStaff(session)) return null;
  return session.companyId;
}
