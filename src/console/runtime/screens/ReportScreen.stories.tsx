import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, screen, userEvent, waitFor } from 'storybook/test';
import * as XLSX from '@e965/xlsx';
import { users } from '../../stories/fixtures.ts';
import { text } from '../../stories/helpers.ts';
import { apiError, callsTo } from '../../stories/stub-api.ts';
import { setDownloadSink } from '../download.ts';
import { today } from '../form/date-rules.ts';
import { auditEntries } from '../../stories/data.ts';
import { listHandler } from '../../stories/list-stub.ts';
import { fxArgs } from '../../stories/screens.ts';
import ReportScreen from './ReportScreen.tsx';

const meta = {
  title: 'Runtime/ReportScreen',
  component: ReportScreen,
  args: fxArgs('fxActivityReport', 'reports.logs'),
  parameters: {
    session: users.manager,
    route: { path: '/Reports/Logs', pattern: '/Reports/Logs' },
    api: { 'audit.list': listHandler(() => auditEntries(3, 40), ['operationId']) },
  },
} satisfies Meta<typeof ReportScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const dateInput = (which: 'start' | 'end', lng = 'es') => screen.findByLabelText(text(`common.dateRange.${which}`, lng)) as Promise<HTMLInputElement>;
const setDate = async (which: 'start' | 'end', value: string, lng = 'es') => fireEvent.change(await dateInput(which, lng), { target: { value } });
const run = () => userEvent.click(screen.getByRole('button', { name: text('common.report.run', 'es') }));

export const EndAfterStartUpToToday: Story = {
  play: async () => {
    await expect(await dateInput('end')).toHaveAttribute('max', today());
    await setDate('start', '2025-06-10');
    await setDate('end', '2025-06-01');
    await run();
    await expect(await screen.findByText(text('validation.dateRange.endBeforeStart', 'es'))).toBeInTheDocument();
    await setDate('end', '2999-01-01');
    await run();
    await expect(await screen.findByText(text('validation.dateRange.afterToday', 'es'))).toBeInTheDocument();
    await expect(callsTo('audit.list')).toHaveLength(0);
  },
};

export const EndAfterStartInEnglish: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await setDate('start', '2025-06-10', 'en');
    await setDate('end', '2025-06-01', 'en');
    await userEvent.click(screen.getByRole('button', { name: text('common.report.run', 'en') }));
    await expect(await screen.findByText(text('validation.dateRange.endBeforeStart', 'en'))).toBeInTheDocument();
  },
};

export const PayloadTableChartAndExport: Story = {
  beforeEach: () => setDownloadSink((blob, name) => saved.push({ blob, name })),
  play: async () => {
    saved = [];
    await setDate('start', '2025-06-01');
    await setDate('end', '2025-06-02');
    await run();
    await screen.findByRole('table');
    // The payload is the declared mapping of the filter values.
    await expect(callsTo('audit.list')[0].query).toEqual({ dateStart: '2025-06-01', dateEnd: '2025-06-02', pageSize: '200' });
    await expect(screen.getByText(text('common.report.rows', 'es', { count: 40 }))).toBeInTheDocument();
    // The chart counts rows per operation: no top-N cut on an aggregate.
    await expect(screen.getByTestId('chart')).toHaveAttribute('data-points', '40');
    await waitFor(() => expect(screen.getByTestId('chart').querySelector('svg.marks')).not.toBeNull(), { timeout: 8000 });
    await userEvent.click(screen.getByRole('button', { name: text('common.export.xlsx', 'es') }));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 8000 });
    const book = XLSX.read(new Uint8Array(await saved[0].blob.arrayBuffer()), { type: 'array' });
    await expect(book.SheetNames).toEqual(['recipient']);
    await expect(XLSX.utils.sheet_to_json(book.Sheets.recipient)).toHaveLength(40);
  },
};
let saved: { blob: Blob; name: string }[] = [];

export const ErrorsListOfTheAnswer: Story = {
  parameters: { api: { 'audit.list': apiError(400, '99931', 'Invalid field', [{ code: '99962', message: 'Unsupported query dates' }, { code: '99961', message: 'Unsupported account' }]) } },
  play: async () => {
    await setDate('start', '2025-06-01');
    await setDate('end', '2025-06-02');
    await run();
    const alert = await screen.findByRole('alert');
    await expect(alert).toHaveTextContent(text('errors.server.unsupportedQueryDates', 'es'));
    await expect(alert).toHaveTextContent(text('errors.server.unsupportedAccount', 'es'));
  },
};

export const NoData: Story = {
  parameters: { api: { 'audit.list': { items: [], total: 0, page: 1, pageSize: 200 } } },
  play: async () => {
    await setDate('start', '2025-06-01');
    await setDate('end', '2025-06-02');
    await run();
    await expect(await screen.findByText(text('common.report.noData', 'es'))).toBeInTheDocument();
  },
};
