// The hand-written payments screens as the app routes them, against a stubbed API:
// the buying page refuses amounts out of range before calling the server and shows the server's
// catalogue error; the response page shows the order as the server states it, passes ref_payco on,
// and keeps asking while the order is pending.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import type { Payment } from '../../../generated/types.gen.ts';
import { areas, notificationList, paymentsSummary, users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { apiError, callsTo } from '../../stories/stub-api.ts';

const payment = (overrides: Partial<Payment> = {}): Payment => ({
  id: 7, kind: 'purchase', date: '2026-11-20T15:00:00.000Z', invoice: 'CLB-1-MH3ZK2-A1B2C3', status: 'approved', amount: 50000, tax: 0, creditsMoved: 50000,
  currency: 'COP', gateway: 'epayco', verificationId: 'f00dfeed', updatedAt: '2026-11-20T15:01:00.000Z', reference: 'abc123', method: 'VS', cardNumber: '**** 0326',
  gatewayText: 'Aceptada: Aprobada', gatewayCode: 1, ...overrides,
});

const api = { 'account.list': areas, 'notifications.list': notificationList(), 'account.paymentsSummary': paymentsSummary, 'payments.promotions': [] };

const meta = {
  title: 'Features/Payments',
  render: () => <></>,
  parameters: { route: { app: true, path: '/Payments/General' }, session: users.manager, api },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const BuyRefusesOutOfRangeAndShowsTheGatewayError: Story = {
  parameters: { api: { ...api, 'payments.create': apiError(502, '99900') } },
  play: async () => {
    const amount = await screen.findByLabelText(/Valor a comprar/);
    await expect(await screen.findByText('$ 125.000')).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '9999');
    await userEvent.click(screen.getByRole('button', { name: 'Pagar con ePayco' }));
    await expect(await screen.findByText(text('errors.server.purchaseOutOfRange', 'es'))).toBeInTheDocument();
    await expect(callsTo('payments.create')).toHaveLength(0);
    await userEvent.clear(amount);
    await userEvent.type(amount, '100.000');
    await expect(screen.getAllByText('$ 100.000').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Pagar con ePayco' }));
    await expect(await screen.findByText(text('errors.server.paymentGatewayUnavailable', 'es'))).toBeInTheDocument();
    await expect(callsTo('payments.create')[0].body).toMatchObject({ amount: 100000 });
  },
};

export const ResponseShowsTheServersWord: Story = {
  parameters: { route: { app: true, path: '/epaycoResponse?invoice=CLB-1-MH3ZK2-A1B2C3&ref_payco=abc123' }, api: { ...api, 'payments.byInvoice': payment() } },
  play: async () => {
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Aprobado'));
    await expect(status).toHaveTextContent('Se sumaron 50.000 créditos');
    // The gateway's answer in the reader's words, from its code (ePayco's own text is Spanish whatever the language).
    await expect(screen.getByText(text('enums.epayco-state.1', 'es'))).toBeInTheDocument();
    await expect(callsTo('payments.byInvoice')[0].query).toMatchObject({ ref_payco: 'abc123' });
    await expect(screen.getByRole('button', { name: 'Descargar comprobante' })).toBeInTheDocument();
  },
};

let asked = 0;
export const ResponseKeepsAskingWhilePending: Story = {
  parameters: {
    route: { app: true, path: '/epaycoResponse?invoice=CLB-1-MH3ZK2-A1B2C3' },
    api: { ...api, 'payments.byInvoice': () => (asked++ === 0 ? payment({ status: 'pending', gatewayText: null }) : payment()) },
  },
  play: async () => {
    asked = 0;
    await expect(await screen.findByText(/aún no confirma el pago/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Aprobado'), { timeout: 6000 });
  },
};
