import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { notificationInbox, users } from '../stories/fixtures.ts';
import { text } from '../stories/helpers.ts';
import { apiError, callsTo } from '../stories/stub-api.ts';
import { NotificationBell } from './NotificationBell.tsx';

const inbox = notificationInbox();

const meta = {
  title: 'Shell/NotificationBell',
  component: NotificationBell,
  args: { userId: users.analista.idUser },
  parameters: { session: users.analista, api: inbox.api, layout: 'centered' },
  beforeEach: () => {
    inbox.fill();
  },
} satisfies Meta<typeof NotificationBell>;
export default meta;
type Story = StoryObj<typeof meta>;

// `hidden`: while the dialog is open the rest of the page is aria-hidden.
const bell = (count: number) => screen.findByRole('button', { name: `Notificaciones: ${count} sin leer`, hidden: true });

export const UnreadCount: Story = {
  play: async () => {
    await expect(await bell(2)).toBeInTheDocument();
    await expect(callsTo('notifications.list')[0].url).toBe(`/notifications/${users.analista.idUser}`);
  },
};

export const OpenAndMarkRead: Story = {
  play: async () => {
    await userEvent.click(await bell(2));
    const dialog = await screen.findByRole('dialog', { name: 'Notificaciones' });
    await expect(within(dialog).getByText('Créditos bajos')).toBeInTheDocument();
    const [first] = within(dialog).getAllByRole('button', { name: text('screens.notifications.markRead', 'es') });
    await userEvent.click(first);
    await expect(await bell(1)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: text('screens.notifications.markAll', 'es') }));
    await expect(await bell(0)).toBeInTheDocument();
    await expect(callsTo('notifications.markRead').map((c) => (c.body as { notificationIds: unknown }).notificationIds)).toEqual([[1], 'all']);
  },
};

export const DialogWidth: Story = {
  play: async () => {
    await userEvent.click(await bell(2));
    const dialog = await screen.findByRole('dialog');
    await expect(getComputedStyle(dialog).maxWidth).toBe('600px');
  },
};

export const MarkReadFailureIsOnlyLogged: Story = {
  parameters: { api: { ...inbox.api, 'notifications.markRead': apiError(500, 'm1', 'boom') } },
  play: async () => {
    await userEvent.click(await bell(2));
    const dialog = await screen.findByRole('dialog');
    const [first] = within(dialog).getAllByRole('button', { name: text('screens.notifications.markRead', 'es') });
    await userEvent.click(first);
    await waitFor(() => expect(callsTo('notifications.markRead')).toHaveLength(1));
    await expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await expect(await bell(2)).toBeInTheDocument();
  },
};
