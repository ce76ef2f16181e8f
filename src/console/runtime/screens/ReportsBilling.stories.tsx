// /Reports/FactuDashboard (config/screens/reports-billing.yaml) over a stubbed API: the report's
// `download` — once the board ran, "Descargar Excel" calls the server's Excel twin with the same
// payload as the board (pOption, the year and month, the signed-in user) and saves the file
// under the declared name; a refusal is said beside the button; a role whose permissions lack the
// download does not see it.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { screens } from '../../../generated/screens.gen.ts';
import { users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { apiError, callsTo } from '../../stories/stub-api.ts';
import { setDownloadSink } from '../download.ts';
import type { ScreenDef } from '../screen-types.ts';
import ReportScreen from './ReportScreen.tsx';

const es = (key: string) => text(key, 'es');
const row = (c: Record<string, unknown>) => ({
  messages: 0, parts: 0, credits: 0, pending: 0, sent: 0, delivered: 0, read: 0, failed: 0, blocked: 0, cancelled: 0, latencyAvgMs: null, within3s: 0, within5s: 0, within60s: 0, over60s: 0, successRate: null, ...c,
});
const board = {
  level: 1,
  items: [
    { accountId: 3, account: 'SMS demo', platform: 'sms', ...row({ messages: 4, parts: 5, credits: 4 }) },
    { accountId: 4, account: 'WhatsApp demo', platform: 'whatsapp', ...row({ messages: 1, parts: 1, credits: 40 }) },
  ],
  platforms: [{ platform: 'sms', ...row({ messages: 4, credits: 4 }) }, { platform: 'whatsapp', ...row({ messages: 1, credits: 40 }) }],
  periods: [{ period: '2026-06-01', ...row({ messages: 5, credits: 44 }) }],
  totals: row({ messages: 5, parts: 6, credits: 44 }),
};
let saved: { blob: Blob; name: string }[] = [];

const meta = {
  title: 'Reports/Billing board',
  component: ReportScreen,
  args: { screenId: 'reportsBilling', menuKey: 'reports.billingDashboard', screen: screens.reportsBilling as unknown as ScreenDef },
  parameters: {
    session: users.manager,
    route: { path: '/Reports/FactuDashboard', pattern: '/Reports/FactuDashboard' },
    api: {
      'reportCenter.getAccounts': [{ id: 3, name: 'SMS demo', platform: 'sms' }],
      'reportCenter.connectinInfoBillingBoard': board,
      'reportCenter.connectinExcelInfoBillingBoard': new Blob(['PK-xlsx'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    },
  },
  beforeEach: () => {
    saved = [];
    return setDownloadSink((blob, name) => saved.push({ blob, name }));
  },
} satisfies Meta<typeof ReportScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const run = async () => {
  await userEvent.type(await screen.findByRole('spinbutton', { name: new RegExp(`^${es('screens.reportsBilling.year').replace(/[()]/g, '.')}`) }), '2026');
  await userEvent.click(screen.getByRole('button', { name: es('common.report.run') }));
  await screen.findByRole('table', { name: es('screens.reportsBilling.title') });
};

export const ExcelTwinWithTheSamePayload: Story = {
  play: async () => {
    // Nothing to download before the board ran.
    await screen.findByRole('button', { name: es('common.report.run') });
    await expect(screen.queryByRole('button', { name: es('screens.reportsBilling.excel') })).toBeNull();
    await run();
    await userEvent.click(screen.getByRole('button', { name: es('screens.reportsBilling.excel') }));
    await waitFor(() => expect(saved).toHaveLength(1));
    await expect(saved[0].name).toBe('tablero-facturacion.xlsx');
    await expect(await saved[0].blob.text()).toBe('PK-xlsx');
    const boardQuery = callsTo('reportCenter.connectinInfoBillingBoard')[0].query;
    await expect(boardQuery).toMatchObject({ pOption: '1', pYear: '2026', connectinUserId: String(users.manager.idUser) });
    await expect(callsTo('reportCenter.connectinExcelInfoBillingBoard')[0].query).toEqual(boardQuery);
  },
};

export const RefusalSaidBesideTheButton: Story = {
  parameters: { api: { 'reportCenter.connectinExcelInfoBillingBoard': apiError(400, '99962', 'Unsupported date') } },
  play: async () => {
    await run();
    await userEvent.click(screen.getByRole('button', { name: es('screens.reportsBilling.excel') }));
    await expect(await screen.findByRole('alert')).toHaveTextContent(es('errors.server.unsupportedQueryDates'));
    await expect(saved).toHaveLength(0);
  },
};
