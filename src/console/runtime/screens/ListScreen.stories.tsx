import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { notificationInbox, users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { callsTo } from '../../stories/stub-api.ts';
import ListScreen from './ListScreen.tsx';

const inbox = notificationInbox();

const meta = {
  title: 'Runtime/ListScreen',
  component: ListScreen,
  args: { screenId: 'notifications', menuKey: 'notifications' },
  parameters: { session: users.analista, route: { path: '/Notifications' }, api: inbox.api },
  beforeEach: () => {
    inbox.fill();
  },
} satisfies Meta<typeof ListScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Notifications: Story = {
  play: async () => {
    const table = await screen.findByRole('table');
    await expect(within(table).getAllByRole('row')).toHaveLength(4);
    await expect(within(table).getByText('Campaña enviada')).toBeInTheDocument();
    // YYYY/MM/DD h:mma (spec 9), in the browser's time zone.
    await expect(within(table).getAllByText(/^2025\/0[56]\/\d\d \d{1,2}:\d\d[ap]m$/)).toHaveLength(3);
    await expect(within(table).getAllByRole('button', { name: text('screens.notifications.markRead', 'es') })).toHaveLength(2);
  },
};

export const MarkOneRead: Story = {
  play: async () => {
    const table = await screen.findByRole('table');
    const [first] = within(table).getAllByRole('button', { name: text('screens.notifications.markRead', 'es') });
    await userEvent.click(first);
    await waitFor(() => expect(within(table).getAllByRole('button', { name: text('screens.notifications.markRead', 'es') })).toHaveLength(1));
    await expect(callsTo('notifications.markRead')[0].body).toEqual({ userId: users.analista.idUser, notificationIds: [1] });
  },
};

export const MarkAllRead: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: text('screens.notifications.markAll', 'es') }));
    await waitFor(() => expect(screen.queryAllByRole('button', { name: text('screens.notifications.markRead', 'es') })).toHaveLength(0));
    await expect(callsTo('notifications.markRead')[0].body).toEqual({ userId: users.analista.idUser, notificationIds: 'all' });
  },
};

export const Empty: Story = {
  beforeEach: () => {
    inbox.fill([]);
  },
  play: async () => {
    await expect(await screen.findByText(text('screens.notifications.empty', 'es'))).toBeInTheDocument();
    await expect(screen.queryByRole('table')).not.toBeInTheDocument();
  },
};
