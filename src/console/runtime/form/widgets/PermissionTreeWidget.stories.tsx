import type { Meta, StoryObj } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { users } from '../../../stories/fixtures.ts';
import { text } from '../../../stories/helpers.ts';
import { WidgetDemo } from '../../../stories/WidgetDemo.tsx';

// The role form's `permissions` (rolesV3.create): a list of grants, found by the ranked testers.
const grant = {
  type: 'object',
  required: ['id', 'actions'],
  properties: { id: { type: 'integer' }, actions: { type: 'array', items: { type: 'string', enum: ['view', 'create', 'edit', 'delete', 'deploy', 'report', 'login', 'logout', 'download'] } } },
};
const schemaOf = (extra: Record<string, unknown> = {}) =>
  ({ type: 'object', required: ['permissions'], properties: { permissions: { type: 'array', maxItems: 200, items: grant, title: 'fields.permissions', ...extra } } }) as RJSFSchema;

const meta = {
  title: 'Runtime/Widgets (permission tree)',
  component: WidgetDemo,
  args: { schema: schemaOf() },
  parameters: { session: users.manager },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const box = (name: string) => screen.findByRole('checkbox', { name });
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent || '{}') as Record<string, unknown>;
const all = (node: string) => text('common.permissionTree.all', 'es', { name: node });

export const TickActionsAndNodes: Story = {
  play: async () => {
    const home = text('menu.dashboard', 'es');
    const settings = text('menu.settings', 'es');
    const roles = text('menu.settings.roles', 'es');
    const view = text('enums.action.view', 'es');
    // One action of a top-level component.
    await userEvent.click(await box(`${home}: ${view}`));
    // A group opens; its node checkbox ticks every action of the component.
    await userEvent.click(screen.getByRole('button', { name: text('common.permissionTree.expand', 'es', { name: settings }) }));
    await userEvent.click(await box(all(roles)));
    await expect(await box(`${roles}: ${text('enums.action.delete', 'es')}`)).toBeChecked();
    // Some of the group's actions ticked: the group's own checkbox is mixed.
    await expect(await box(all(settings))).toHaveAttribute('data-indeterminate', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(submitted()).toEqual({ permissions: [{ id: 10, actions: ['view'] }, { id: 6007, actions: ['view', 'create', 'edit', 'delete'] }] }));
    // Clearing the node clears its actions; the grant disappears from the value.
    await userEvent.click(await box(all(roles)));
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(submitted()).toEqual({ permissions: [{ id: 10, actions: ['view'] }] }));
  },
};

export const LockedWhatTheUserDoesNotHold: Story = {
  play: async () => {
    // A manager does not hold the MT report (develop, admin): it shows, locked, and a whole-group
    // tick leaves it out.
    const reports = text('menu.reports', 'es');
    const mt = text('menu.reports.mt', 'es');
    await userEvent.click(await screen.findByRole('button', { name: text('common.permissionTree.expand', 'es', { name: reports }) }));
    const mtView = await box(`${mt}: ${text('enums.action.view', 'es')}`);
    await expect(mtView).toBeDisabled();
    await userEvent.click(await box(all(reports)));
    await expect(mtView).not.toBeChecked();
    await expect(await box(`${text('menu.reports.logs', 'es')}: ${text('enums.action.download', 'es')}`)).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect((submitted().permissions as { id: number }[]).map((g) => g.id)).not.toContain(4005));
    await expect((submitted().permissions as { id: number }[]).map((g) => g.id)).toContain(4014);
  },
};

export const ReadOnlyRole: Story = {
  args: { schema: schemaOf({ readOnly: true }), initial: { permissions: [{ id: 20, actions: ['view'] }, { id: 2001, actions: ['view', 'deploy'] }, { id: 6002, actions: ['view'] }] } },
  play: async () => {
    const campaigns = text('menu.campaigns', 'es');
    const deploy = text('menu.campaigns.deploy', 'es');
    // Groups holding a grant open by themselves; nothing can be changed.
    const tree = await screen.findByRole('group', { name: deploy });
    const boxes = within(tree).getAllByRole('checkbox');
    await expect(boxes.filter((b) => (b as HTMLInputElement).checked)).toHaveLength(2);
    for (const b of boxes) await expect(b).toBeDisabled();
    await expect(await box(all(campaigns))).toBeDisabled();
    await expect(await box(`${text('menu.settings.users', 'es')}: ${text('enums.action.view', 'es')}`)).toBeChecked();
    await expect(screen.getByRole('button', { name: text('common.permissionTree.collapse', 'es', { name: campaigns }) })).toHaveAttribute('aria-expanded', 'true');
  },
};
