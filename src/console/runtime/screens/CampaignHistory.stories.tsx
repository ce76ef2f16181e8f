// The sending history (config/screens/campaign-history.yaml) and the personalised campaign detail
// (personalized-campaign-detail.yaml) over a stubbed API, one story per runtime extension they
// brought: a report chart fed by another part of the answer (`chart.itemsPath`) with its values
// translated (`chart.translate`), a totals line (`totals`); and the detail's link shown only for
// a personalised campaign, whose messages show HTML as text.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, screen, userEvent, waitFor, within } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { screenArgs, screenDef } from '../../stories/product-screens.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { callsTo } from '../../stories/stub-api.ts';
import { listHandler } from '../../stories/list-stub.ts';
import DetailScreen from './DetailScreen.tsx';
import ListScreen from './ListScreen.tsx';
import ReportScreen from './ReportScreen.tsx';

const es = (key: string, options?: Record<string, unknown>) => text(key, 'es', options);

const row = (id: number, name: string, c: Partial<Record<string, number>>) => ({
  id, campaignId: 7, campaignName: name, channelName: 'SMS demo', platform: 'sms', kind: 'open', purpose: 'transactional', state: 'completed',
  day: '2026-06-01', startedAt: '2026-06-01T15:05:00Z', finishedAt: '2026-06-01T15:06:00Z',
  total: 0, accepted: 0, pending: 0, sent: 0, delivered: 0, failed: 0, blocked: 0, cancelled: 0, credits: 0, ...c,
});
const historyAnswer = {
  items: [row(41, 'Promo <b>junio</b>', { total: 5, accepted: 4, delivered: 3, failed: 1, blocked: 1, credits: 4 }), row(42, 'Cobranza', { total: 2, accepted: 2, delivered: 2, credits: 2 })],
  totals: { deployments: 2, total: 7, accepted: 6, pending: 0, sent: 0, delivered: 5, failed: 1, blocked: 1, cancelled: 0, credits: 1234 },
  perDay: [
    { day: '2026-06-01', outcome: 'delivered', messages: 5 },
    { day: '2026-06-01', outcome: 'failed', messages: 1 },
    { day: '2026-06-02', outcome: 'blocked', messages: 1 },
  ],
  truncated: false,
};

const campaign = {
  id: 7, name: 'Promo junio', kind: 'open', purpose: 'transactional', channelId: 3, channelName: 'SMS demo', platform: 'sms',
  content: 'Hola {{nombre}}', variables: ['nombre'], scheduledAt: null, recurrence: null, label: 'Active', editLock: 'unlockedForEdit',
  maxCompleteInteractions: null, recipients: 3, lastDeploymentId: 41, lastDeploymentState: 'completed', createdAt: '2026-06-01T15:00:00Z', updatedAt: '2026-06-01T15:00:00Z',
};

const meta = {
  title: 'Runtime/Campaign history',
  component: ReportScreen,
  args: screenArgs('campaignHistory', 'campaigns.history'),
  parameters: {
    session: users.manager,
    route: { path: '/Campaigns/history', pattern: '/Campaigns/history' },
    api: {
      'deployments.history': historyAnswer,
      'campaigns.list': { items: [{ id: 7, name: 'Promo junio' }], total: 1, page: 1, pageSize: 200 },
    },
  },
} satisfies Meta<typeof ReportScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const setDate = async (which: 'start' | 'end', value: string) =>
  fireEvent.change(await screen.findByLabelText(es(`common.dateRange.${which}`)), { target: { value } });

/** `totals`, `chart.itemsPath` and `chart.translate`: one row per deployment, a totals line, messages per day by outcome. */
export const RowsTotalsAndPerDayChart: Story = {
  play: async () => {
    await setDate('start', '2026-06-01');
    await setDate('end', '2026-06-02');
    await userEvent.click(screen.getByRole('button', { name: es('common.report.run') }));
    const table = await screen.findByRole('table');
    await expect(callsTo('deployments.history')[0].query).toEqual({ dateStart: '2026-06-01', dateEnd: '2026-06-02' });
    // HTML in a campaign name is text.
    await expect(within(table).getByText('Promo <b>junio</b>')).toBeInTheDocument();
    await expect(table.querySelector('b')).toBeNull();
    const totals = screen.getByLabelText(es('screens.campaignHistory.totals'));
    await expect(within(totals).getByText(es('fields.creditsSpent'))).toBeInTheDocument();
    await expect(within(totals).getByText('1.234')).toBeInTheDocument();
    await expect(within(totals).getByText(es('fields.refused'))).toBeInTheDocument();
    // The chart draws the per-day counts, not the deployment rows, every point (no top-N cut).
    const chart = screen.getByTestId('chart');
    await expect(chart).toHaveAttribute('data-points', '3');
    await expect(chart).toHaveTextContent(es('screens.campaignHistory.perDay'));
    await waitFor(() => expect(chart.querySelector('svg.marks')).not.toBeNull(), { timeout: 8000 });
    await waitFor(() => expect(chart).toHaveTextContent(es('enums.message-outcome.delivered')), { timeout: 8000 });
  },
};

/** Every campaign that has run links to its messages by number, personalised or not (plain SMS too). */
export const DetailLinksPersonalisedMessages: Story = {
  render: () => <DetailScreen screenId="campaignDetail" menuKey="campaigns.deploy" screen={screenDef('campaignDetail')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns/7', pattern: '/Campaigns/campaigns/:id' },
    api: {
      'campaigns.get': { ...campaign, content: 'Hola', variables: [] },
      'campaigns.recipients': listHandler(() => [], ['phone']),
      'deployments.list': listHandler(() => [], []),
    },
  },
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: es('screens.campaignDetail.personalized') }));
    await expectLocation('/Campaigns/Campaigns/personalizedCampaignDetail/7');
  },
};

/** A campaign that has not run has no messages to list: no link. */
export const NoLinkBeforeARun: Story = {
  render: () => <DetailScreen screenId="campaignDetail" menuKey="campaigns.deploy" screen={screenDef('campaignDetail')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns/7', pattern: '/Campaigns/campaigns/:id' },
    api: { 'campaigns.get': { ...campaign, lastDeploymentId: null, lastDeploymentState: null } },
  },
  play: async () => {
    await screen.findByRole('button', { name: es('screens.campaignDetail.launch') });
    await expect(screen.queryByRole('button', { name: es('screens.campaignDetail.personalized') })).toBeNull();
  },
};

const messages = [
  { id: 1, deploymentId: 41, toNumber: '+573001234701', body: 'Hola Ana <img src=x onerror="window.hacked=1">', state: 'delivered', deliveryStatus: 'DELIVERED', statusCode: 3, errorCode: null, reason: null, parts: 1, sentAt: '2026-06-01T15:05:00Z', updatedAt: '2026-06-01T15:05:10Z' },
  { id: 2, deploymentId: 41, toNumber: '+573001234702', body: 'Hola Luis', state: 'failed', deliveryStatus: 'FAILED', statusCode: 70, errorCode: '0x45', reason: { kind: 'channelError', code: '0x45', hours: null, until: null }, parts: 1, sentAt: '2026-06-01T15:05:00Z', updatedAt: '2026-06-01T15:05:12Z' },
];

/** The personalised detail: the campaign's id from the route, each message as its recipient got it, HTML as text. */
export const PersonalisedMessagesAsText: Story = {
  render: () => <ListScreen screenId="personalizedCampaignDetail" menuKey="campaigns.personalizedDetail" screen={screenDef('personalizedCampaignDetail')} />,
  parameters: {
    route: { path: '/Campaigns/Campaigns/personalizedCampaignDetail/7', pattern: '/Campaigns/Campaigns/personalizedCampaignDetail/:id' },
    api: { 'campaigns.messages': listHandler(() => messages, ['toNumber']) },
  },
  play: async () => {
    await expect(await screen.findByText('Hola Ana <img src=x onerror="window.hacked=1">')).toBeInTheDocument();
    await expect(document.querySelector('img[src="x"]')).toBeNull();
    await expect(callsTo('campaigns.messages')[0].params).toEqual({ id: '7' });
    // The state and the network's delivery status both read in words (the status once showed "FAILED").
    await expect(screen.getAllByText(es('enums.delivery-status.FAILED')).length).toBeGreaterThan(0);
    await expect(screen.queryByText('FAILED')).toBeNull();
    // Why it did not go, in words with the code beside.
    await expect(screen.getByText(`${es('enums.message-reason.channelError')} (0x45)`)).toBeInTheDocument();
  },
};
