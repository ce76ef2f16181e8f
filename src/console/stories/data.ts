// Sample records for the runtime's stories: team members (as many as asked, deterministic),
// roles, areas, cost centers, audit entries, credentials and SMS accounts.
import type { Row } from './list-stub.ts';

const FIRST = ['Ana', 'Luis', 'Marta', 'Jorge', 'Camila', 'Andrés', 'Paula', 'Diego', 'Sofía', 'Julián'];
const LAST = ['Gómez', 'Pérez', 'Rodríguez', 'López', 'Martínez', 'García', 'Hernández', 'Torres'];
const STATES = ['active', 'active', 'active', 'pending', 'disabled'];
const ROLES = [['manager'], ['analista'], ['admin', 'analista'], ['analista'], ['ops']];

export function teamMember(i: number): Row {
  const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`.slice(0, 20);
  const roles = ROLES[i % ROLES.length];
  return {
    id: i + 1,
    name,
    email: `user${i + 1}@acme.com.co`,
    documentType: 'CC',
    documentId: String(10_000_000 + i),
    phone: `300${String(1_000_000 + i).slice(-7)}`,
    address: `Calle ${(i % 120) + 1} # ${(i % 40) + 1}-${(i % 90) + 10}`,
    state: STATES[i % STATES.length],
    roleIds: roles.map((r) => ({ superadmin: 1, admin: 2, analista: 3, manager: 4, ops: 5 })[r] ?? 3),
    roles,
    otpMethod: i % 2 ? 'sms' : 'email',
    areaId: (i % 2) + 1,
    areaName: i % 2 ? 'Medellín' : 'Bogotá',
    costCenterId: null,
    costCenterName: null,
    parentId: null,
    parentName: null,
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
  };
}

export const teamMembers = (n: number): Row[] => Array.from({ length: n }, (_, i) => teamMember(i));

export const roles = [
  { id: 1, name: 'superadmin', readOnly: true, permissions: [] },
  { id: 2, name: 'admin', readOnly: true, permissions: [] },
  { id: 3, name: 'analista', readOnly: true, permissions: [] },
  { id: 4, name: 'manager', readOnly: true, permissions: [] },
  { id: 9, name: 'Supervisores', readOnly: false, permissions: [] },
];

export const costCenters = [
  { id: 1, name: 'Mercadeo', code: 'MKT-01', createdAt: '2025-01-02T10:00:00Z' },
  { id: 2, name: 'Ventas', code: 'VEN-02', createdAt: '2025-01-03T10:00:00Z' },
  { id: 3, name: 'Servicio al cliente', code: 'SAC-03', createdAt: '2025-01-04T10:00:00Z' },
];

export const countries = [{ code: 'CO', name: 'Colombia' }];
export const regions: Record<string, { code: string; name: string }[]> = { CO: [{ code: '5', name: 'Antioquia' }, { code: '11', name: 'Bogotá, D.C.' }] };
export const cities: Record<string, { code: string; name: string }[]> = {
  '5': [{ code: '5001', name: 'Medellín' }, { code: '5088', name: 'Bello' }],
  '11': [{ code: '11001', name: 'Bogotá, D.C.' }],
};

export const auditEntries = (userId: number | null, n = 6): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    userId,
    userEmail: 'manager@demo.colibri.co',
    ip: '10.0.0.8',
    method: i % 3 ? 'PATCH' : 'POST',
    path: i % 3 ? '/v1/team/5' : '/v1/team',
    operationId: ['team.create', 'team.update', 'team.update', 'channels.create', 'team.create', 'blockList.add'][i % 6],
    componentId: 6002,
    componentName: 'settings.users',
    componentAction: i % 3 ? 'edit' : 'create',
    status: i === 4 ? 409 : 200,
    createdAt: new Date(Date.UTC(2025, 5, 2, 14, 5 + i)).toISOString(),
  }));

export const credentials: Row[] = [
  { id: 'ck_live_0123456789abcdef', name: 'ERP', status: 'active', hint: '••••a1b2', createdAt: '2025-05-01T12:00:00Z', lastUsedAt: '2025-06-01T08:30:00Z', revokedAt: null, replacedBy: null },
  { id: 'ck_live_fedcba9876543210', name: '=HYPERLINK("http://evil")', status: 'revoked', hint: '••••c3d4', createdAt: '2025-04-01T12:00:00Z', lastUsedAt: null, revokedAt: '2025-04-20T12:00:00Z', replacedBy: null },
];

export const smsAccounts: Row[] = Array.from({ length: 14 }, (_, i) => ({
  id: i + 1,
  name: `Cuenta ${i + 1}`,
  state: 'active',
  clientId: 1,
  clientName: 'ACME',
  responsibleId: null,
  responsibleName: null,
  quota: 100_000,
  used: ((i * 7919) % 90_000) + 1000,
  available: 0,
  createdAt: '2025-01-01T00:00:00Z',
}));
