import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, waitFor } from 'storybook/test';
import { areas, notificationList, paymentsSummary, users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { apiError } from '../../stories/stub-api.ts';
import { smsAccounts } from '../../stories/data.ts';
import { listHandler } from '../../stories/list-stub.ts';
import { fx } from '../../stories/screens.ts';
import DashboardScreen from './DashboardScreen.tsx';

const meta = {
  title: 'Runtime/DashboardScreen',
  component: DashboardScreen,
  args: { screenId: 'home', menuKey: 'dashboard' },
  parameters: {
    session: users.manager,
    route: { path: '/User' },
    api: { 'account.paymentsSummary': paymentsSummary, 'notifications.list': notificationList(), 'account.list': areas },
  },
} satisfies Meta<typeof DashboardScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Home: Story = {
  play: async () => {
    await expect(screen.getByRole('heading', { name: text('screens.home.title', 'es') })).toBeInTheDocument();
    // 1 credit = 1 COP, shown in Colombian pesos (es-CO).
    await waitFor(() => expect(screen.getByTestId('card-screens.home.balance').textContent).toMatch(/^\$\s?125\.000$/));
    await expect(screen.getByTestId('card-screens.home.unread')).toHaveTextContent('2');
    await expect(screen.getByTestId('card-screens.home.areas')).toHaveTextContent('2');
    await expect(screen.getByRole('link', { name: new RegExp(text('screens.home.unread', 'es')) })).toHaveAttribute('href', '/Notifications');
  },
};

export const CardError: Story = {
  parameters: { api: { 'account.paymentsSummary': apiError(403, '99982', 'Not enough permissions'), 'notifications.list': notificationList(), 'account.list': areas } },
  play: async () => {
    await expect(await screen.findByText(text('errors.server.notEnoughPermissions', 'es'))).toBeInTheDocument();
  },
};

export const CardsAndTopNChart: Story = {
  args: { screenId: 'fxOverview', screen: fx.fxOverview },
  // An admin may read quotas (6006); the chart's operation needs it.
  parameters: { session: users.admin, api: { 'account.paymentsSummary': paymentsSummary, 'platformSms.quotaList': listHandler(() => smsAccounts) } },
  play: async () => {
    await waitFor(() => expect(screen.getByTestId('card-screens.home.balance').textContent).toMatch(/125\.000/));
    // 14 accounts, the chart draws the 10 that used the most.
    const chart = await screen.findByTestId('chart');
    await expect(chart).toHaveAttribute('data-points', '10');
    await expect(chart).toHaveTextContent(text('menu.settings.quota', 'es'));
    // Vega (loaded on first use) draws it as SVG.
    await waitFor(() => expect(chart.querySelector('svg.marks')).not.toBeNull(), { timeout: 8000 });
  },
};

/** A chart whose operation the role may not call is not drawn (an analista has no quota view, 6006). */
export const GatedByPermission: Story = {
  args: { screenId: 'fxOverview', screen: fx.fxOverview },
  parameters: { session: users.analista, api: { 'account.paymentsSummary': paymentsSummary, 'platformSms.quotaList': listHandler(() => smsAccounts) } },
  play: async () => {
    await waitFor(() => expect(screen.getByTestId('card-screens.home.balance').textContent).toMatch(/125\.000/));
    await expect(screen.queryByTestId('chart')).toBeNull();
  },
};
