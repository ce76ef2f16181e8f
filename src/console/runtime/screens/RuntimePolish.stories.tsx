// The runtime's rough edges, each with a story that fails without its fix: a field's server error
// shown once (on the field), a Save press that a layout shift moved away still lands, "select all"
// says it means the loaded rows, the role filter reads translated role names, Edit and Delete show
// only on the rows the server takes (`when`, `editWhen`), a test's result has its own box, and an
// upload lists the rows it refused.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { apiError, callsTo } from '../../stories/stub-api.ts';
import { roles, teamMembers } from '../../stories/data.ts';
import { listHandler, type Row } from '../../stories/list-stub.ts';
import { fx } from '../../stories/screens.ts';
import type { ScreenDef } from '../screen-types.ts';
import FormScreen from './FormScreen.tsx';
import ListScreen from './ListScreen.tsx';
import ReportScreen from './ReportScreen.tsx';

const meta = {
  title: 'Runtime/Polish',
  component: FormScreen,
  args: { screenId: 'areaForm', menuKey: 'settings.areaList' },
  parameters: { session: users.manager, route: { path: '/profile/account/areas/new', pattern: '/profile/account/areas/new' } },
} satisfies Meta<typeof FormScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const nameInput = () => screen.findByLabelText(new RegExp(`^${text('fields.name', 'es')}`), { selector: 'input' });
const saveButton = () => screen.getByRole('button', { name: text('common.save', 'es') });

export const FieldErrorShownOnce: Story = {
  parameters: { api: { 'account.create': apiError(400, '99931', 'Invalid field', [{ field: 'name', code: '99931', message: 'Invalid field (name)' }]) } },
  play: async () => {
    await userEvent.type(await nameInput(), 'Sede');
    await userEvent.click(saveButton());
    const message = text('errors.server.invalidField', 'es');
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(1));
    // On the field, not repeated above the buttons.
    await expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await expect((await nameInput()).getAttribute('aria-invalid')).toBe('true');
  },
};

export const SaveLandsAfterLayoutShift: Story = {
  parameters: { api: { 'account.create': { id: 3, name: 'Sede' } } },
  play: async () => {
    await userEvent.type(await nameInput(), 'Sede');
    const button = saveButton();
    // The press blurs the field, a message above goes away and the button moves up 24 px before
    // the release: the browser clicks nothing. The release where the button was lands the click.
    const input = await nameInput();
    let top = 300;
    button.getBoundingClientRect = () => ({ top, left: 20, bottom: top + 36, right: 120, width: 100, height: 36, x: 20, y: top, toJSON: () => ({}) });
    button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, clientX: 60, clientY: 330 }));
    input.blur();
    top = 276;
    document.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, button: 0, clientX: 60, clientY: 330 }));
    await waitFor(() => expect(callsTo('account.create')).toHaveLength(1));
    await expect(callsTo('account.create')[0].body).toEqual({ name: 'Sede' });
  },
};

export const DragAwayStillCancels: Story = {
  parameters: { api: { 'account.create': { id: 3, name: 'Sede' } } },
  play: async () => {
    await userEvent.type(await nameInput(), 'Sede');
    const button = saveButton();
    button.getBoundingClientRect = () => ({ top: 300, left: 20, bottom: 336, right: 120, width: 100, height: 36, x: 20, y: 300, toJSON: () => ({}) });
    button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, clientX: 60, clientY: 330 }));
    document.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, button: 0, clientX: 400, clientY: 600 }));
    await new Promise((r) => requestAnimationFrame(r));
    await expect(callsTo('account.create')).toHaveLength(0);
  },
};

// ------------------------------------------------------------------ lists

const manyMembers = teamMembers(1234);
const withBulk: ScreenDef = {
  ...fx.fxTeamMembers,
  id: 'fxTeamMembersBulk',
  bulkActions: [{ label: 'enums.action.delete', operation: 'team.delete', params: { id: '$selected' }, method: 'DELETE', confirm: true, permission: { component: 6002, action: 'delete' } }],
};

export const SelectAllSaysLoadedRows: Story = {
  render: () => <ListScreen screenId="fxTeamMembersBulk" menuKey="settings.users" screen={withBulk} />,
  parameters: { route: { path: '/profile/management', pattern: '/profile/management' }, api: { 'team.list': listHandler(() => manyMembers, ['name']) } },
  play: async () => {
    const table = await screen.findByRole('table');
    const box = await within(table).findByRole('checkbox', { name: /filas cargadas/ });
    // The label says how many rows the box takes, out of how many match.
    await expect(box).toHaveAccessibleName(/^Seleccionar las \d+ filas cargadas \(de 1\.234\)$/);
    await userEvent.click(box);
    await expect(screen.getByTestId('selected-count').textContent).toMatch(/^Seleccionadas: \d+ de 1\.234 \(solo filas cargadas\)$/);
  },
};

export const RoleFilterTranslated: Story = {
  render: () => <ListScreen screenId="teamMembers" menuKey="settings.users" />,
  parameters: { route: { path: '/profile/management', pattern: '/profile/management' }, api: { 'team.list': listHandler(() => manyMembers.slice(0, 5), ['name']), 'roles.list': roles } },
  play: async () => {
    await userEvent.click(await screen.findByRole('combobox', { name: new RegExp(`^${text('fields.roleId', 'es')}`) }));
    await screen.findByRole('option', { name: text('enums.role.manager', 'es') });
    await expect(screen.queryByRole('option', { name: 'manager' })).not.toBeInTheDocument();
    // A company's own role keeps its name.
    await expect(screen.getByRole('option', { name: 'Supervisores' })).toBeInTheDocument();
  },
};

const roleRows: Row[] = [
  { id: 4, name: 'manager', scope: 'all', readOnly: true, usersCount: 3, createdAt: '2025-01-01T10:00:00Z', permissions: [] },
  { id: 9, name: 'Supervisores', scope: 'meAndDependents', readOnly: false, usersCount: 0, createdAt: '2025-02-01T10:00:00Z', permissions: [] },
];

export const NoEditOrDeleteOnSystemRoles: Story = {
  render: () => <ListScreen screenId="roles" menuKey="settings.roles" />,
  parameters: { session: users.superadmin, route: { path: '/profile/Roles', pattern: '/profile/Roles' }, api: { 'rolesV3.list': listHandler(() => roleRows, ['name']) } },
  play: async () => {
    const system = await screen.findByRole('row', { name: /Gerente|manager/ });
    const own = screen.getByRole('row', { name: /Supervisores/ });
    await expect(within(system).queryByRole('button', { name: text('common.edit', 'es') })).not.toBeInTheDocument();
    await expect(within(system).queryByRole('button', { name: text('enums.action.delete', 'es') })).not.toBeInTheDocument();
    await expect(within(own).getByRole('button', { name: text('common.edit', 'es') })).toBeInTheDocument();
    await expect(within(own).getByRole('button', { name: text('enums.action.delete', 'es') })).toBeInTheDocument();
  },
};

export const NoDeleteOnOwnRow: Story = {
  render: () => <ListScreen screenId="teamMembers" menuKey="settings.users" />,
  // users.manager is user 4: the fourth member of the list is the caller.
  parameters: { route: { path: '/profile/management', pattern: '/profile/management' }, api: { 'team.list': listHandler(() => manyMembers.slice(0, 5), ['name']), 'roles.list': roles } },
  play: async () => {
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').filter((r) => !r.closest('thead'));
    const own = rows.find((r) => within(r).queryByText('user4@acme.com.co'))!;
    const other = rows.find((r) => within(r).queryByText('user3@acme.com.co'))!;
    await expect(within(own).queryByRole('button', { name: text('enums.action.delete', 'es') })).not.toBeInTheDocument();
    await expect(within(other).getByRole('button', { name: text('enums.action.delete', 'es') })).toBeInTheDocument();
  },
};

// ------------------------------------------------------------------ results

export const TryChannelResultBox: Story = {
  args: { screenId: 'channelTry', menuKey: 'settings.channels' },
  parameters: {
    route: { path: '/profile/channels/7/try', pattern: '/profile/channels/:id/try' },
    api: { 'channels.try': { messageId: 55, channelId: 7, to: '+573001234567', status: 'DELIVERED', error: null, createdAt: '2025-03-01T15:00:00Z' } },
  },
  play: async () => {
    await userEvent.type(await screen.findByLabelText(new RegExp(`^${text('fields.to', 'es')}`), { selector: 'input' }), '3001234567');
    await userEvent.click(screen.getByRole('button', { name: text('screens.channelTry.submit', 'es') }));
    const box = await screen.findByTestId('form-result');
    await within(box).findByText(text('enums.delivery-status.DELIVERED', 'es'));
    await expect(within(box).getByText('+573001234567')).toBeInTheDocument();
    // Not a secret: no "shown once" copy box.
    await expect(screen.queryByTestId('secret-status')).not.toBeInTheDocument();
  },
};

export const UploadListsRefusedRows: Story = {
  render: () => <ReportScreen screenId="blockListUpload" menuKey="settings.blockList" />,
  parameters: {
    route: { path: '/profile/blockList/upload', pattern: '/profile/blockList/upload' },
    api: {
      'blockList.upload': { added: 2, effectiveAt: '2025-03-02T15:00:00Z', rejectedTotal: 140, rejected: [{ position: 3, value: '12ab', reason: 'invalidPhone' }, { position: 7, value: '', reason: 'emptyPhone' }] },
      'blockList.list': { items: [], total: 0, page: 1, pageSize: 200 },
    },
  },
  play: async () => {
    const input = await screen.findByLabelText(new RegExp(`^${text('fields.file', 'es')}`), { selector: 'input[type=file]' });
    await userEvent.upload(input, new File(['3001234567\n12ab\n'], 'numeros.csv', { type: 'text/csv' }));
    const refused = await screen.findByTestId('upload-rejections');
    await expect(within(refused).getByText('Filas rechazadas: 140')).toBeInTheDocument();
    await expect(within(refused).getByText(text('common.upload.rejectedShown', 'es', { shown: 2, total: 140 }))).toBeInTheDocument();
    const row = within(refused).getByRole('row', { name: /12ab/ });
    await expect(within(row).getByText('3')).toBeInTheDocument();
    await expect(within(row).getByText(text('enums.phone-rejection.invalidPhone', 'es'))).toBeInTheDocument();
  },
};
