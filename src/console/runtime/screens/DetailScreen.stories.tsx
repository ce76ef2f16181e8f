import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { currentLocation, expectLocation, text } from '../../stories/helpers.ts';
import { callsTo } from '../../stories/stub-api.ts';
import { auditEntries, teamMember } from '../../stories/data.ts';
import { listHandler } from '../../stories/list-stub.ts';
import { fxArgs } from '../../stories/screens.ts';
import DetailScreen from './DetailScreen.tsx';

const member: Record<string, unknown> = { ...teamMember(1), id: 5, roles: ['admin', 'analista'] };

const meta = {
  title: 'Runtime/DetailScreen',
  component: DetailScreen,
  args: fxArgs('fxTeamMemberDetail', 'settings.users'),
  parameters: {
    session: users.manager,
    route: { path: '/profile/management/5', pattern: '/profile/management/:id' },
    api: { 'team.get': member, 'team.delete': { ok: true }, 'audit.list': listHandler(() => auditEntries(5), ['userEmail', 'operationId']) },
  },
} satisfies Meta<typeof DetailScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const field = (name: string) => document.querySelector(`dd[data-field="${name}"]`) as HTMLElement;

export const FieldsTab: Story = {
  play: async () => {
    await screen.findByRole('tab', { name: text('menu.security.editProfile', 'es') });
    await expect(callsTo('team.get')[0].params).toEqual({ id: '5' });
    await expect(field('name')).toHaveTextContent(String(member.name));
    // Cells by type: enum label, role chips, status chip, date.
    await expect(field('documentType')).toHaveTextContent(text('enums.document-type.CC', 'es'));
    await expect(within(field('roles')).getByText(text('enums.role.admin', 'es'))).toBeInTheDocument();
    await expect(within(field('roles')).getByText(text('enums.role.analista', 'es'))).toBeInTheDocument();
    await expect(field('state').querySelector('[data-status]')).toHaveAttribute('data-status', 'active');
    await expect(field('createdAt').textContent).toMatch(/^\d{4}\/\d\d\/\d\d \d{1,2}:\d\d[ap]m$/);
  },
};

export const NestedListTab: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('tab', { name: text('menu.reports.logs', 'es') }));
    // The tab is in the URL; the nested list gets the record's id as its parameter.
    await waitFor(() => expect(currentLocation()).toBe('/profile/management/5?tab=1'));
    const panel = await screen.findByRole('tabpanel');
    await within(panel).findByRole('table');
    await expect(callsTo('audit.list')[0].query).toMatchObject({ userId: '5', sort: 'createdAt', order: 'desc', page: '1' });
    await expect(within(panel).getAllByText('team.update').length).toBeGreaterThan(0);
    // A nested list keeps its state in memory, not in the page's URL.
    await expect(currentLocation()).toBe('/profile/management/5?tab=1');
  },
};

export const EditAndDeleteActions: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: text('enums.action.edit', 'es') }));
    await expectLocation('/profile/management/5/edit');
  },
};

export const DeleteConfirmsAndGoesBack: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: text('enums.action.delete', 'es') }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: text('enums.action.delete', 'es') }));
    await expectLocation('/profile/management');
    await expect(callsTo('team.delete')[0].params).toEqual({ id: '5' });
  },
};

export const ActionsHiddenWithoutPermission: Story = {
  parameters: { session: users.analista },
  play: async () => {
    await screen.findByRole('tab', { name: text('menu.security.editProfile', 'es') });
    await expect(screen.queryByRole('button', { name: text('enums.action.edit', 'es') })).not.toBeInTheDocument();
    await expect(screen.queryByRole('button', { name: text('enums.action.delete', 'es') })).not.toBeInTheDocument();
  },
};
