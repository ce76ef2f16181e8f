// Sample sessions and records for stories and console tests. Grants come from the same rule the
// server uses for system roles (src/core/permissions.ts defaultGrants).
import { defaultGrants } from '../../core/permissions.ts';
import { encodeSession } from '../../core/session-codec.ts';
import { appSettings } from '../../generated/app.gen.ts';
import type { Area, Notification, PermissionGrant, SessionUser } from '../../generated/types.gen.ts';
import type { StubRequest } from './stub-api.ts';

let nextId = 100;

export function makeUser(roles: string[], overrides: Partial<SessionUser> = {}): SessionUser {
  const id = overrides.idUser ?? nextId++;
  return {
    idUser: id,
    token: `token-${roles.join('-')}-${id}`,
    state: 'active',
    roles,
    company: { id: 1, name: 'Demo S.A.S.', nit: '900123456-7', state: 'active', planType: 'pilot' },
    associations: [
      { platformClientId: 1, platformResponsibleId: 11, name: 'Laura Gómez' },
      { platformClientId: 1, platformResponsibleId: 12, name: 'Andrés Pérez' },
    ],
    clients: [{ id: 1, name: 'Demo S.A.S.', nit: '900123456-7' }],
    permissions: { menu: defaultGrants(roles, appSettings.product.key) as PermissionGrant[], defaultModule: '/User' },
    fullName: `${roles[0][0].toUpperCase()}${roles[0].slice(1)} Demo`,
    email: `${roles[0]}@demo.colibri.co`,
    ...overrides,
  };
}

export const users = {
  analista: makeUser(['analista'], { idUser: 3 }),
  manager: makeUser(['manager'], { idUser: 4 }),
  superadmin: makeUser(['superadmin'], { idUser: 1 }),
  admin: makeUser(['admin'], { idUser: 2 }),
};

export const stateUsers = {
  pending: makeUser(['analista'], { idUser: 20, state: 'pending' }),
  validation: makeUser(['analista'], { idUser: 21, state: 'validation' }),
  needsNewPassword: makeUser(['analista'], { idUser: 22, state: 'needsNewPassword' }),
  ExpiredPassword: makeUser(['analista'], { idUser: 23, state: 'ExpiredPassword' }),
  disabled: makeUser(['analista'], { idUser: 24, state: 'disabled' }),
  companyValidation: makeUser(['manager'], { idUser: 25, company: { id: 2, name: 'Nueva S.A.S.', state: 'validation', planType: 'pilot' } }),
  noCompany: makeUser(['manager'], { idUser: 26, company: null }),
  companyDisabled: makeUser(['manager'], { idUser: 27, company: { id: 3, name: 'Cerrada S.A.S.', state: 'disabled', planType: 'pilot' } }),
};

export const tokenOf = (user: SessionUser) => encodeSession(user);

export const areas: Area[] = [
  { id: 1, name: 'Bogotá' },
  { id: 2, name: 'Medellín' },
];

export const notifications: Notification[] = [
  { id: 1, title: 'Campaña enviada', message: 'La campaña "Promo junio" terminó: 12.400 mensajes entregados.', visible: true, createdAt: '2025-06-02T15:04:00-05:00' },
  { id: 2, title: 'Créditos bajos', message: 'Quedan 8.000 créditos en Bogotá.', visible: true, createdAt: '2025-06-01T09:30:00-05:00' },
  { id: 3, title: 'Bienvenido', message: 'Tu cuenta está activa.', visible: false, createdAt: '2025-05-28T08:00:00-05:00' },
];

export const notificationList = (items: Notification[] = notifications) => ({ items, unread: items.filter((n) => n.visible).length });

/** A user's notifications as the server keeps them: listed with the unread count, marked read by ids or "all". */
export function notificationInbox() {
  let inbox: Notification[] = [];
  return {
    /** Fills the inbox with copies of `items` (a story's marks do not outlive it). */
    fill(items: Notification[] = notifications) { inbox = items.map((n) => ({ ...n })); },
    api: {
      'notifications.list': () => notificationList(inbox),
      'notifications.markRead': (req: StubRequest) => {
        const { notificationIds } = req.body as { notificationIds: number[] | 'all' };
        inbox = inbox.map((n) => (notificationIds === 'all' || notificationIds.includes(n.id) ? { ...n, visible: false } : n));
        return { unread: inbox.filter((n) => n.visible).length };
      },
    },
  };
}

export const paymentsSummary = { balance: 125000, reserved: 4500, purchased: 500000, spent: 375000, purchasedThisMonth: 100000, spentThisMonth: 42000, promotional: 0, movements: 7 };
/** The home's last 7 days: 40 sent on the 24th (38 delivered, 1 failed), nothing else. */
export const lastDays = {
  days: 7,
  perDay: ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25'].flatMap((day) =>
    (['sent', 'delivered', 'failed'] as const).map((outcome) => ({ day, outcome, messages: day === '2026-11-24' ? { sent: 40, delivered: 38, failed: 1 }[outcome] : 0 })),
  ),
  sent: 40,
  delivered: 38,
  failed: 1,
  deliveryRate: 0.95,
};
