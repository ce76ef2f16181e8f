// /Reports/Deployments and its classic view /Reports/Deployments/oldVersion
// (config/screens/reports-deployments*.yaml) over a stubbed API: one query, two views — the
// current one with its chart and the traffic per status code, the old one a single plain table of
// the runs with the same figures, without the second table (or the chart).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { screens } from '../../../generated/screens.gen.ts';
import { users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { callsTo } from '../../stories/stub-api.ts';
import type { ScreenDef } from '../screen-types.ts';
import ReportScreen from './ReportScreen.tsx';

const es = (key: string) => text(key, 'es');
const row = (c: Record<string, unknown>) => ({
  messages: 0, parts: 0, credits: 0, pending: 0, sent: 0, delivered: 0, read: 0, failed: 0, blocked: 0, cancelled: 0, within3s: 0, within5s: 0, within60s: 0, over60s: 0, ...c,
});
const summary = {
  items: [{ deploymentId: 41, campaign: 'Promo junio', deploymentState: 'completed', deployedAt: '2026-06-01 10:05', ...row({ messages: 3, sent: 3, delivered: 2, failed: 1, credits: 3 }) }],
  states: [{ statusCode: 3, ...row({ messages: 2 }) }, { statusCode: 92, ...row({ messages: 1 }) }],
  totals: row({ messages: 3, sent: 3, delivered: 2, failed: 1, credits: 3 }),
};

const meta = {
  title: 'Reports/Deployments',
  component: ReportScreen,
  args: { screenId: 'reportsDeployments', menuKey: 'reports.deployments', screen: screens.reportsDeployments as unknown as ScreenDef },
  parameters: {
    session: users.manager,
    route: { path: '/Reports/Deployments', pattern: '/Reports/Deployments' },
    api: { 'reportCenter.getAccounts': [{ id: 3, name: 'SMS demo', platform: 'sms' }], 'reportCenter.getDeploymentsSummary': summary },
  },
} satisfies Meta<typeof ReportScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

async function runFor(id: number) {
  const label = es('screens.reportsDeployments.deploymentId').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await userEvent.type(await screen.findByLabelText(new RegExp(`^${label}`)), String(id));
  await userEvent.click(screen.getByRole('button', { name: es('common.report.run') }));
}

export const CurrentViewAddsTheStatesTable: Story = {
  play: async () => {
    await runFor(41);
    await screen.findByText('Promo junio');
    await expect(callsTo('reportCenter.getDeploymentsSummary')[0].body).toMatchObject({ DeploymentId: 41 });
    await expect(screen.getByText(es('screens.reportsGeneral.byState'))).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('table')).toHaveLength(2));
  },
};

export const OldVersionIsOnePlainTable: Story = {
  args: { screenId: 'reportsDeploymentsOld', menuKey: 'reports.deploymentsOld', screen: screens.reportsDeploymentsOld as unknown as ScreenDef },
  parameters: { route: { path: '/Reports/Deployments/oldVersion', pattern: '/Reports/Deployments/oldVersion' } },
  play: async () => {
    await screen.findByRole('heading', { level: 1, name: es('screens.reportsDeploymentsOld.title') });
    await runFor(41);
    const table = await screen.findByRole('table');
    await expect(within(table).getByText('Promo junio')).toBeInTheDocument();
    // The same query as the current view, without its chart and its second table.
    await expect(callsTo('reportCenter.getDeploymentsSummary')[0].body).toMatchObject({ DeploymentId: 41 });
    await expect(screen.queryByText(es('screens.reportsGeneral.byState'))).not.toBeInTheDocument();
    await expect(screen.getAllByRole('table')).toHaveLength(1);
  },
};
