// /Reports/General (config/screens/reports-general.yaml) over a stubbed API: the runtime's report
// `sections` — three results on one filter form, two of them other operations with their own
// payloads and one another part of the first answer (no second call) — a chart whose rows are
// folded into translated outcomes (`chart.fold`), and the problems of several answers listed once.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, screen, userEvent, waitFor, within } from 'storybook/test';
import { screens } from '../../../generated/screens.gen.ts';
import { users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { apiError, callsTo } from '../../stories/stub-api.ts';
import type { ScreenDef } from '../screen-types.ts';
import ReportScreen from './ReportScreen.tsx';

const es = (key: string, options?: Record<string, unknown>) => text(key, 'es', options);
const counts = (c: Partial<Record<string, number>>) => ({
  messages: 0, parts: 0, credits: 0, pending: 0, sent: 0, delivered: 0, failed: 0, blocked: 0, cancelled: 0, latencyAvgMs: null, within3s: 0, within5s: 0, within60s: 0, over60s: 0, ...c,
});
const summary = {
  level: 1,
  items: [
    { period: '2026-06-01', accountId: 3, account: 'SMS demo', platform: 'sms', ...counts({ messages: 5, delivered: 4, failed: 1, credits: 5 }) },
    { period: '2026-06-02', accountId: 4, account: 'WhatsApp demo', platform: 'whatsapp', ...counts({ messages: 2, delivered: 2, credits: 2 }) },
  ],
  accounts: [
    { accountId: 3, account: 'SMS demo', platform: 'sms', ...counts({ messages: 5, delivered: 4, failed: 1, credits: 5 }) },
    { accountId: 4, account: 'WhatsApp demo', platform: 'whatsapp', ...counts({ messages: 2, delivered: 2, credits: 2 }) },
  ],
  areas: [
    { areaId: 2, area: 'Sucursal Norte', ...counts({ messages: 5, delivered: 4, failed: 1, credits: 5 }) },
    { areaId: 0, area: null, ...counts({ messages: 2, delivered: 2, credits: 2 }) },
  ],
  periods: [{ period: '2026-06-01', ...counts({ messages: 5, delivered: 4, failed: 1 }) }, { period: '2026-06-02', ...counts({ messages: 2, delivered: 2 }) }],
  totals: counts({ messages: 7, delivered: 6, failed: 1, credits: 7 }),
};
const operators = {
  items: [
    { operatorId: 3, operator: 'Tigo', basis: 'network', ...counts({ messages: 4, delivered: 4, latencyAvgMs: 900, within3s: 4, within5s: 4, within60s: 4 }) },
    { operatorId: 0, operator: null, basis: 'none', ...counts({ messages: 3, delivered: 2, failed: 1 }) },
  ],
  totals: counts({ messages: 7, delivered: 6, failed: 1 }),
};
const states = {
  items: [{ statusCode: 3, accountId: 3, account: 'SMS demo', ...counts({ messages: 6 }) }, { statusCode: 99, accountId: 3, account: 'SMS demo', ...counts({ messages: 1 }) }],
  states: [{ statusCode: 3, ...counts({ messages: 6 }) }, { statusCode: 99, ...counts({ messages: 1 }) }],
  totals: counts({ messages: 7 }),
};

const meta = {
  title: 'Screens/ReportsGeneral',
  component: ReportScreen,
  args: { screenId: 'reportsGeneral', menuKey: 'reports.general', screen: screens.reportsGeneral as unknown as ScreenDef },
  parameters: {
    session: users.manager,
    route: { path: '/Reports/General', pattern: '/Reports/General' },
    api: {
      'reportCenter.getAccounts': [{ id: 3, name: 'SMS demo', platform: 'sms' }, { id: 4, name: 'WhatsApp demo', platform: 'whatsapp' }],
      'reportCenter.getOperators': [{ id: 3, name: 'Tigo', kind: 'mno' }],
      'reportCenter.getMessageStates': [{ id: 3, name: 'Success' }, { id: 99, name: 'General error' }],
      'reportCenter.getTransactionsSummary': summary,
      'reportCenter.getOperatorsSummary': operators,
      'reportCenter.getTrafficByState': states,
    },
  },
} satisfies Meta<typeof ReportScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

async function fill() {
  fireEvent.change(await screen.findByLabelText(es('common.dateRange.start')), { target: { value: '2026-06-01' } });
  fireEvent.change(await screen.findByLabelText(es('common.dateRange.end')), { target: { value: '2026-06-02' } });
  await userEvent.click(await screen.findByRole('combobox', { name: new RegExp(`^${es('screens.reportsGeneral.accounts')}`) }));
  await userEvent.click(await screen.findByRole('option', { name: 'SMS demo' }));
  await userEvent.keyboard('{Escape}');
  await userEvent.click(screen.getByRole('button', { name: es('common.report.run') }));
}

export const ThreeCallsOneForm: Story = {
  play: async () => {
    await fill();
    const operatorsRegion = await screen.findByRole('region', { name: es('screens.reportsGeneral.byOperator') });
    // Each operation got its own payload from the same filters; the top accounts made no call.
    await expect(callsTo('reportCenter.getTransactionsSummary')).toHaveLength(1);
    await expect(callsTo('reportCenter.getTransactionsSummary')[0].body).toEqual({ ClientId: [3], DateStart: '2026-06-01', DateEnd: '2026-06-02', AggregationLevel: 1 });
    await expect(callsTo('reportCenter.getOperatorsSummary')[0].body).toEqual({ ClientsIds: [3], DateStart: '2026-06-01', DateEnd: '2026-06-02' });
    await expect(callsTo('reportCenter.getTrafficByState')[0].body).toEqual({ ClientsIds: [3], DateStart: '2026-06-01', DateEnd: '2026-06-02' });
    await expect(within(operatorsRegion).getByRole('table')).toHaveTextContent(es('enums.operator-basis.network'));
    const top = screen.getByRole('region', { name: es('screens.reportsGeneral.topAccounts') });
    await expect(within(top).getByRole('table')).toHaveTextContent('WhatsApp demo');
    // The areas are another part of the same answer (no call of their own).
    const byArea = screen.getByRole('region', { name: es('screens.reportsGeneral.byArea') });
    await expect(within(byArea).getByRole('table')).toHaveTextContent('Sucursal Norte');
    const byState = screen.getByRole('region', { name: es('screens.reportsGeneral.byState') });
    await expect(within(byState).getByRole('table')).toHaveTextContent(es('enums.sms-state.99'));
    // The first chart's outcomes are folded by the runtime: its legend reads the fields' labels.
    const chart = screen.getAllByTestId('chart')[0];
    await waitFor(() => expect(chart.querySelector('svg.marks')).not.toBeNull(), { timeout: 8000 });
    await waitFor(() => expect(chart).toHaveTextContent(es('fields.delivered')), { timeout: 8000 });
    await expect(chart).not.toHaveTextContent('delivered');
  },
};

export const ProblemsOfEveryAnswerListedOnce: Story = {
  parameters: {
    api: {
      'reportCenter.getTransactionsSummary': apiError(400, '99961', 'Unsupported account', [{ field: 'ClientId', code: '99961', message: 'Unsupported account' }, { field: 'DateEnd', code: '99958', message: 'End before start' }]),
      'reportCenter.getOperatorsSummary': apiError(400, '99961', 'Unsupported account', [{ field: 'ClientsIds', code: '99961', message: 'Unsupported account' }, { field: 'DateEnd', code: '99958', message: 'End before start' }]),
      'reportCenter.getTrafficByState': apiError(400, '99961', 'Unsupported account', [{ field: 'ClientsIds', code: '99961', message: 'Unsupported account' }, { field: 'DateEnd', code: '99958', message: 'End before start' }]),
    },
  },
  play: async () => {
    await fill();
    const alert = await screen.findByRole('alert');
    await expect(alert).toHaveTextContent(es('errors.server.endDateBeforeStart'));
    // Said once, however many calls said it; the account's problem lands on the accounts filter.
    await expect(within(alert).queryAllByText(es('errors.server.endDateBeforeStart'))).toHaveLength(1);
    await expect(screen.queryByRole('region', { name: es('screens.reportsGeneral.byOperator') })).toBeNull();
  },
};
