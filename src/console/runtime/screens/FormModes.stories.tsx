import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { areas, users } from '../../stories/fixtures.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { apiError, callsTo, type StubRequest } from '../../stories/stub-api.ts';
import { costCenters, roles, teamMember } from '../../stories/data.ts';
import { listHandler } from '../../stories/list-stub.ts';
import { fx, fxArgs } from '../../stories/screens.ts';
import FormScreen from './FormScreen.tsx';
import { screenDef } from '../../stories/product-screens.ts';

const member: Record<string, unknown> = { ...teamMember(4), id: 5 };
const api = {
  'team.get': member,
  'team.create': (req: StubRequest) => ({ ...member, ...(req.body as object), id: 77 }),
  'team.update': (req: StubRequest) => ({ ...member, ...(req.body as object) }),
  'roles.list': roles,
  'account.list': areas,
  'costCenters.list': listHandler(() => costCenters, ['name', 'code']),
};

const meta = {
  title: 'Runtime/FormScreen (modes)',
  component: FormScreen,
  args: fxArgs('fxTeamMemberForm', 'settings.users'),
  parameters: { session: users.manager, route: { path: '/profile/management/new', pattern: '/profile/management/new' }, api },
} satisfies Meta<typeof FormScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const label = (key: string, lng = 'es') => new RegExp(`^${text(`fields.${key}`, lng)}`, 'i');
const input = (key: string, lng = 'es') => screen.getByLabelText(label(key, lng), { selector: 'input' });
const choose = async (key: string, option: string) => {
  await userEvent.click(screen.getByRole('combobox', { name: label(key) }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};
const save = () => userEvent.click(screen.getByRole('button', { name: text('common.save', 'es') }));

const fill = async () => {
  await userEvent.type(input('name'), 'Laura Ríos');
  await choose('documentType', text('enums.document-type.CC', 'es'));
  await userEvent.type(input('documentId'), '52123456');
  await userEvent.type(input('email'), 'laura@acme.com.co');
  await userEvent.type(input('phone'), '3104567890');
  await userEvent.type(input('address'), 'Calle 10 # 5-20');
  await choose('roleIds', text('enums.role.manager', 'es'));
  await choose('otpMethod', text('enums.otp-method.sms', 'es'));
};

export const CreateThenView: Story = {
  play: async () => {
    await expect(screen.getByTestId('form-mode')).toHaveAttribute('data-mode', 'create');
    await fill();
    // Role chips: the choice shows as a chip.
    await expect(screen.getByRole('button', { name: text('enums.role.manager', 'es') })).toBeInTheDocument();
    await save();
    await expectLocation('/profile/management/77');
    const [call] = callsTo('team.create');
    await expect(call.body).toEqual({ name: 'Laura Ríos', documentType: 'CC', documentId: '52123456', email: 'laura@acme.com.co', phone: '3104567890', address: 'Calle 10 # 5-20', roleIds: [4], otpMethod: 'sms' });
    await expect(call.headers['X-Component-Action']).toBe('create');
    await expect(await screen.findByText(text('common.saved', 'es'))).toBeInTheDocument();
  },
};

export const CreateValidatesTheSpecRules: Story = {
  play: async () => {
    await userEvent.type(input('name'), 'Un nombre demasiado largo para el campo');
    await userEvent.type(input('documentId'), '12');
    await save();
    await expect(await screen.findByText('Escribe como máximo 20 caracteres.')).toBeInTheDocument();
    await expect(screen.getByText(text('validation.pattern.documentId', 'es'))).toBeInTheDocument();
    await expect(screen.getByText(text('validation.required.roleIds', 'es'))).toBeInTheDocument();
    await expect(screen.getAllByText(text('validation.required', 'es')).length).toBeGreaterThanOrEqual(4);
    await expect(callsTo('team.create')).toHaveLength(0);
  },
};

export const CreateValidatesInEnglish: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await userEvent.type(input('documentId', 'en'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: text('common.save', 'en') }));
    await expect(await screen.findByText(text('validation.pattern.documentId', 'en'))).toBeInTheDocument();
    await expect(screen.getByText(text('validation.required.roleIds', 'en'))).toBeInTheDocument();
  },
};

export const ServerErrorsLandOnTheirFields: Story = {
  parameters: { api: { ...api, 'team.create': apiError(409, '99989', 'Email linked', [{ field: 'documentId', code: '99931', message: 'Document already registered' }]) } },
  play: async () => {
    await fill();
    await save();
    await expect(await screen.findByText(text('errors.server.emailLinked', 'es'))).toBeInTheDocument();
    await waitFor(() => expect(input('email')).toHaveAttribute('aria-invalid', 'true'));
    await expect(input('documentId')).toHaveAttribute('aria-invalid', 'true');
    await expectLocation('/profile/management/new');
    // Fixing the field clears its server error.
    await userEvent.clear(input('email'));
    await userEvent.type(input('email'), 'otra@acme.com.co');
    await waitFor(() => expect(screen.queryByText(text('errors.server.emailLinked', 'es'))).not.toBeInTheDocument());
  },
};

export const EditSendsWhatChangedThenViews: Story = {
  // One route for …/5/edit and …/5, so the same FormScreen stays mounted across the save, as in the app.
  parameters: { route: { path: '/profile/management/5/edit', pattern: '/profile/management/:id/*' } },
  play: async () => {
    await waitFor(() => expect(input('name')).toHaveValue(String(member.name)));
    await expect(screen.getByTestId('form-mode')).toHaveAttribute('data-mode', 'edit');
    await expect(callsTo('team.get')[0].params).toEqual({ id: '5' });
    await userEvent.clear(input('name'));
    await userEvent.type(input('name'), 'Nombre nuevo');
    await save();
    // After the save the action goes back to view (spec 4): the read-only record.
    await expectLocation('/profile/management/5');
    await waitFor(() => expect(screen.getByTestId('form-mode')).toHaveAttribute('data-mode', 'view'));
    const [call] = callsTo('team.update');
    await expect(call.params).toEqual({ id: '5' });
    await expect(call.body).toEqual({ name: 'Nombre nuevo' });
    await expect(call.headers['X-Component-Action']).toBe('edit');
  },
};

export const ViewIsReadOnly: Story = {
  parameters: { route: { path: '/profile/management/5', pattern: '/profile/management/:id' } },
  play: async () => {
    await waitFor(() => expect(input('name')).toHaveValue(String(member.name)));
    await expect(screen.getByTestId('form-mode')).toHaveAttribute('data-mode', 'view');
    await expect(input('name')).toBeDisabled();
    await expect(screen.queryByRole('button', { name: text('common.save', 'es') })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: text('common.edit', 'es') }));
    await expectLocation('/profile/management/5/edit');
  },
};

export const ViewWithoutEditPermission: Story = {
  parameters: { session: users.analista, route: { path: '/profile/management/5', pattern: '/profile/management/:id' } },
  play: async () => {
    await waitFor(() => expect(input('name')).toHaveValue(String(member.name)));
    await expect(screen.queryByRole('button', { name: text('common.edit', 'es') })).not.toBeInTheDocument();
  },
};

export const LeavingWithChangesAsksFirst: Story = {
  parameters: { route: { path: '/profile/management/5/edit', pattern: '/profile/management/:id/edit' } },
  play: async () => {
    await waitFor(() => expect(input('address')).toHaveValue(String(member.address)));
    await userEvent.clear(input('address'));
    await userEvent.type(input('address'), 'Carrera 7 # 1-1');
    await userEvent.click(screen.getByRole('button', { name: text('common.cancel', 'es') }));
    const dialog = await screen.findByRole('dialog');
    await expect(dialog).toHaveTextContent(text('common.unsaved.message', 'es'));
    await userEvent.click(within(dialog).getByRole('button', { name: text('common.cancel', 'es') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expectLocation('/profile/management/5/edit');
    await expect(input('address')).toHaveValue('Carrera 7 # 1-1');
    // The browser's own question on reload or close.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    await expect(unload.defaultPrevented).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: text('common.cancel', 'es') }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: text('common.unsaved.leave', 'es') }));
    await expectLocation('/profile/management/5');
    await expect(callsTo('team.update')).toHaveLength(0);
  },
};

export const CredentialKeyShownOnce: Story = {
  args: fxArgs('fxCredentialForm', 'settings.apiPermissions'),
  parameters: {
    route: { path: '/profile/apiPermissions/new', pattern: '/profile/apiPermissions/new' },
    api: { 'credentials.create': { credential: { id: 'ck_live_0123456789abcdef', name: 'ERP', status: 'active', hint: '••••6789', createdAt: '2025-06-01T00:00:00Z', lastUsedAt: null, revokedAt: null, replacedBy: null }, apiKey: 'ck_live_0123456789abcdef.Zx9-secret-6789' } },
  },
  play: async () => {
    await userEvent.type(input('name'), 'ERP');
    await save();
    // Shown once, before anything else; the page stays until the user says it is saved.
    await expect(await screen.findByTestId('secret-apiKey')).toHaveValue('ck_live_0123456789abcdef.Zx9-secret-6789');
    await expectLocation('/profile/apiPermissions/new');
    await userEvent.click(screen.getByRole('button', { name: text('common.secret.copy', 'es') }));
    await userEvent.click(screen.getByRole('button', { name: text('common.secret.done', 'es') }));
    await expectLocation('/profile/apiPermissions');
    await expect(screen.queryByText('ck_live_0123456789abcdef.Zx9-secret-6789')).not.toBeInTheDocument();
  },
};

/** A field the edit operation does not take (compiled as edit.readonly) shows but cannot change. */
export const FieldsFixedOnEdit: Story = {
  args: { screen: { ...fx.fxTeamMemberForm, edit: { ...fx.fxTeamMemberForm.edit!, readonly: ['documentType', 'documentId'] } } },
  parameters: { route: { path: '/profile/management/5/edit', pattern: '/profile/management/:id/edit' } },
  play: async () => {
    await waitFor(() => expect(input('documentId')).toHaveValue(String(member.documentId)));
    await expect(input('documentId')).toBeDisabled();
    await expect(input('name')).not.toBeDisabled();
  },
};

/** `loadAs`: a report schedule's accounts come back as its record's accountIds; view and edit show them in the ClientsIds field, and a save keeps them. */
export const ScheduleKeepsItsAccounts: Story = {
  render: () => <FormScreen screenId="reportsScheduledForm" menuKey={null} screen={screenDef('reportsScheduledForm')} />,
  parameters: {
    session: users.superadmin,
    route: { path: '/Reports/Scheduled/9/edit', pattern: '/Reports/Scheduled/:id/*' },
    api: {
      'reportCenter.getAccounts': [{ id: 3, name: 'SMS demo', platform: 'sms' }, { id: 4, name: 'WhatsApp demo', platform: 'whatsapp' }],
      'reportCenter.schedule': { id: 9, name: 'Semanal', reportTypeId: 1, accountIds: [4], accounts: ['WhatsApp demo'], frequency: 'weekly', day: 1, hour: 6, emails: ['ops@demo.colibri.co'], enabled: true, nextRunAt: null, lastRunAt: null, createdAt: '2026-11-20T15:00:00.000Z' },
      'reportCenter.updateSchedule': (req: StubRequest) => ({ id: 9, name: 'Semanal', reportTypeId: 1, accountIds: [4], frequency: 'weekly', day: 1, hour: 6, emails: ['ops@demo.colibri.co'], enabled: true, nextRunAt: null, lastRunAt: null, createdAt: '2026-11-20T15:00:00.000Z', ...(req.body as object) }),
    },
  },
  play: async () => {
    await waitFor(() => expect(input('name')).toHaveValue('Semanal'));
    await waitFor(() => expect(screen.getByText('WhatsApp demo')).toBeInTheDocument());
    await userEvent.clear(input('name'));
    await userEvent.type(input('name'), 'Semanal ventas');
    await save();
    await waitFor(() => expect(callsTo('reportCenter.updateSchedule')).toHaveLength(1));
    // The accounts were not touched: not sent again, and nothing asks to choose one.
    await expect(callsTo('reportCenter.updateSchedule')[0].body).toEqual({ name: 'Semanal ventas' });
  },
};

/** `showWhen` on the schedule form: an hourly schedule runs at the top of every hour, so it asks no hour. */
export const HourlyScheduleAsksNoHour: Story = {
  render: () => <FormScreen screenId="reportsScheduledForm" menuKey={null} screen={screenDef('reportsScheduledForm')} />,
  parameters: { session: users.superadmin, route: { path: '/Reports/Scheduled/new', pattern: '/Reports/Scheduled/new' }, api: { 'reportCenter.getAccounts': [{ id: 3, name: 'SMS demo', platform: 'sms' }] } },
  play: async () => {
    // "Hora (Bogotá)": the label as written, its parentheses read literally.
    const hour = new RegExp(`^${text('fields.hour', 'es').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
    await waitFor(() => expect(screen.getByLabelText(hour)).toBeInTheDocument());
    await userEvent.click(screen.getByRole('combobox', { name: label('frequency') }));
    await userEvent.click(await screen.findByRole('option', { name: text('enums.report-frequency.hourly', 'es') }));
    await waitFor(() => expect(screen.queryByLabelText(hour)).toBeNull());
  },
};
