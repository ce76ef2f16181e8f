// The demo's phone as the app routes it, against a stubbed API: a number's conversation drawn as a
// handset shows it (received with their channel type and status, written on the right), an answer
// sent through the sandbox's inbound door to the chosen channel, and the page in production, where
// the sandbox operations do not exist.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { SandboxPhone } from '../../../generated/types.gen.ts';
import { areas, notificationList, users } from '../../stories/fixtures.ts';
import { apiError, callsTo } from '../../stories/stub-api.ts';

const phone: SandboxPhone = {
  number: '+573001110003',
  lines: [
    { id: 'out-1', direction: 'out', platform: 'sms', channelId: 3, channel: 'SMS Respuestas 85432', text: 'Colibri: su código es 4411', at: '2026-11-28T15:00:00.000Z', state: 'delivered', deliveryStatus: 'DELIVERED' },
    { id: 'in-2', direction: 'in', platform: 'sms', channelId: 3, channel: 'SMS Respuestas 85432', text: 'menu', at: '2026-11-28T15:01:00.000Z', state: null, deliveryStatus: null },
  ],
  channels: [{ id: 3, name: 'SMS Respuestas 85432', platform: 'sms' }, { id: 5, name: 'WhatsApp Ventas', platform: 'whatsapp' }],
};

const api = { 'account.list': areas, 'notifications.list': notificationList(), 'system.phone': phone, 'system.inbound': { ok: true } };

const meta = {
  title: 'Features/SandboxPhone',
  render: () => <></>,
  parameters: { route: { app: true, path: '/sandbox/phone?number=300%20111%200003' }, session: users.superadmin, api },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const ShowsTheConversationAndSendsAnAnswer: Story = {
  play: async () => {
    const log = await screen.findByRole('log', { name: 'Conversación del teléfono' });
    await expect(within(log).getByText('Colibri: su código es 4411')).toBeInTheDocument();
    await expect(within(log).getByTestId('phone-line-out')).toHaveTextContent('Entregado');
    await expect(within(log).getByTestId('phone-line-in')).toHaveTextContent('menu');
    await expect(callsTo('system.phone')[0].query).toMatchObject({ number: '300 111 0003' });
    await userEvent.type(screen.getByLabelText('Mensaje'), 'SALIR');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(callsTo('system.inbound')).toHaveLength(1));
    await expect(callsTo('system.inbound')[0].body).toEqual({ channelId: 3, from: '+573001110003', text: 'SALIR' });
  },
};

export const SaysItOnlyExistsInTheDemo: Story = {
  parameters: { api: { ...api, 'system.phone': apiError(404, '99999', 'Route GET:/v1/sandbox/phone not found') } },
  play: async () => {
    await expect(await screen.findByText(/solo existe en la demostración/)).toBeInTheDocument();
    await expect(screen.queryByRole('log')).not.toBeInTheDocument();
  },
};
