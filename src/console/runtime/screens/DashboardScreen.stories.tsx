import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, waitFor } from 'storybook/test';
import { areas, lastDays, notificationList, paymentsSummary, users } from '../../stories/fixtures.ts';
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
    api: {
      'account.paymentsSummary': paymentsSummary, 'notifications.list': notificationList(), 'account.list': areas, 'messages.lastDays': lastDays,
      'campaigns.list': { items: [{ id: 7, name: 'Promo diciembre', channelName: 'SMS Notificaciones', lastDeploymentState: 'completed', createdAt: '2026-11-24T15:00:00Z' }], total: 1, page: 1, pageSize: 5 },
    },
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
    // Reserved credits, the week's figures and the delivery rate as a percentage.
    await expect(screen.getByTestId('card-screens.home.reserved').textContent).toMatch(/^\$\s?4\.500$/);
    await waitFor(() => expect(screen.getByTestId('card-screens.home.sent')).toHaveTextContent('40'));
    await expect(screen.getByTestId('card-screens.home.deliveryRate').textContent).toMatch(/^95\s?%$/);
    // Every day of the week is drawn, in order; the recent campaigns name their state in words.
    await expect(await screen.findByTestId('chart')).toHaveAttribute('data-points', '21');
    const table = await screen.findByRole('table', { name: text('screens.home.recentCampaigns', 'es') });
    await expect(table).toHaveTextContent(text('enums.deployment-state.completed', 'es'));
    await expect(screen.getByRole('link', { name: 'Promo diciembre' })).toHaveAttribute('href', '/Campaigns/campaigns/7');
  },
};

/** A company without campaigns is offered its first one, as the page's primary action. */
export const FirstCampaignCallToAction: Story = {
  parameters: { api: { 'campaigns.list': { items: [], total: 0, page: 1, pageSize: 5 } } },
  play: async () => {
    const cta = await screen.findByRole('link', { name: text('screens.home.firstCampaign', 'es') });
    await expect(cta).toHaveAttribute('href', '/Campaigns/campaigns/new');
    await expect(cta.className).toMatch(/MuiButton-contained/);
    await expect(screen.getByText(text('screens.home.noCampaigns', 'es'))).toBeInTheDocument();
  },
};

/** A company role with the home but not the campaigns (2001) sees no campaign table; the credits stay. */
export const TableGatedByPermission: Story = {
  parameters: { session: { ...users.manager, permissions: { ...users.manager.permissions, menu: users.manager.permissions.menu.filter((g) => g.id !== 2001) } } },
  play: async () => {
    await waitFor(() => expect(screen.getByTestId('card-screens.home.balance').textContent).toMatch(/125\.000/));
    await expect(screen.queryByRole('table')).toBeNull();
  },
};

export const CardError: Story = {
  parameters: { api: { 'account.paymentsSummary': apiError(403, '99982', 'Not enough permissions'), 'notifications.list': notificationList(), 'account.list': areas } },
  play: async () => {
    // The four credit cards (balance, reserved, bought and spent this month) read the refused summary; each says why.
    await expect(await screen.findAllByText(text('errors.server.notEnoughPermissions', 'es'))).toHaveLength(4);
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
