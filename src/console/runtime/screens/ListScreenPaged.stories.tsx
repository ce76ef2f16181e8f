import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, screen, userEvent, waitFor, within } from 'storybook/test';
import * as XLSX from '@e965/xlsx';
import { BOM } from '../../../core/export-safety.ts';
import { notificationList, notifications, users } from '../../stories/fixtures.ts';
import { currentLocation, expectLocation, text } from '../../stories/helpers.ts';
import { apiError, callsTo, type StubRequest } from '../../stories/stub-api.ts';
import { setDownloadSink } from '../download.ts';
import { credentials, teamMember, teamMembers } from '../../stories/data.ts';
import { listHandler, type Row } from '../../stories/list-stub.ts';
import { fx, fxArgs } from '../../stories/screens.ts';
import ListScreen from './ListScreen.tsx';

const HUNDRED_THOUSAND = teamMembers(100_000);
let rows: Row[] = HUNDRED_THOUSAND;
const search = ['name', 'email', 'documentId', 'phone'];

const meta = {
  title: 'Runtime/ListScreen (paged)',
  component: ListScreen,
  args: fxArgs('fxTeamMembers', 'settings.users'),
  parameters: {
    session: users.manager,
    route: { path: '/profile/management', pattern: '/profile/management' },
    api: { 'team.list': listHandler(() => rows, search), 'team.delete': { ok: true } },
  },
  beforeEach: () => {
    rows = HUNDRED_THOUSAND;
  },
} satisfies Meta<typeof ListScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const lastList = () => callsTo('team.list').at(-1)!;
const table = () => screen.findByRole('table');
const dataRows = async () => within(await table()).getAllByRole('row').filter((r) => !r.closest('thead') && !r.hasAttribute('data-loading'));

export const HundredThousandRows: Story = {
  play: async () => {
    const t = await table();
    // The server pages: one page of 50, newest first (defaultSort), the total from the answer.
    await waitFor(() => expect(within(t).getByText(HUNDRED_THOUSAND[99_999].email as string)).toBeInTheDocument());
    await expect(lastList().query).toEqual({ page: '1', pageSize: '50', sort: 'createdAt', order: 'desc' });
    await expect(screen.getByText(/1–50 de 100\.000/)).toBeInTheDocument();
    await expect(t).toHaveAttribute('aria-rowcount', '100001');
    // Virtual rows: far fewer <tr> than rows.
    await expect((await dataRows()).length).toBeLessThan(60);
    // Column types: role chips, status chip, date as YYYY/MM/DD h:mma.
    const first = (await dataRows())[0];
    await expect(within(first).getByText(text('enums.role.ops', 'es'))).toBeInTheDocument();
    await expect(first.querySelector('[data-status]')).toHaveAttribute('data-status', 'disabled');
    await expect(within(first).getByText(/^\d{4}\/\d\d\/\d\d \d{1,2}:\d\d[ap]m$/)).toBeInTheDocument();
  },
};

export const ScrollingFetchesThePageInView: Story = {
  play: async () => {
    const t = await table();
    await waitFor(() => expect(callsTo('team.list')).toHaveLength(1));
    const scroller = t.parentElement as HTMLElement;
    scroller.scrollTop = 48 * 60_000;
    fireEvent.scroll(scroller);
    // Row 60,000 is on page 1,201 (pageSize 50).
    await waitFor(() => expect(callsTo('team.list').some((c) => c.query.page === '1201')).toBe(true));
    await waitFor(() => expect(screen.getByText(HUNDRED_THOUSAND[100_000 - 60_001].email as string)).toBeInTheDocument());
    // The page in view goes to the URL (replacing the entry), so a reload comes back here.
    await waitFor(() => expect(currentLocation()).toMatch(/[?&]page=1201/), { timeout: 3000 });
  },
};

export const SortSearchAndFilterLiveInTheUrl: Story = {
  play: async () => {
    await table();
    await userEvent.click(screen.getByRole('button', { name: text('fields.name', 'es') }));
    await expectLocation('/profile/management?sort=name&order=asc');
    await waitFor(() => expect(lastList().query).toMatchObject({ sort: 'name', order: 'asc', page: '1' }));
    await userEvent.click(screen.getByRole('button', { name: text('fields.name', 'es') }));
    await expectLocation('/profile/management?sort=name&order=desc');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'Jorge');
    await expectLocation('/profile/management?sort=name&order=desc&q=Jorge');
    await waitFor(() => expect(lastList().query).toMatchObject({ q: 'Jorge', sort: 'name', order: 'desc' }));
    await userEvent.click(screen.getByRole('combobox', { name: text('fields.state', 'es') }));
    await userEvent.click(await screen.findByRole('option', { name: text('enums.user-state.pending', 'es') }));
    await expectLocation('/profile/management?sort=name&order=desc&q=Jorge&state=pending');
    await waitFor(() => expect(lastList().query).toMatchObject({ q: 'Jorge', state: 'pending' }));
    for (const row of await dataRows()) await expect(row).toHaveTextContent('Jorge');
  },
};

export const ReloadRestoresTheQuery: Story = {
  parameters: { route: { path: '/profile/management?sort=name&order=desc&q=Ana&state=active&pageSize=100', pattern: '/profile/management' } },
  play: async () => {
    await table();
    await expect(callsTo('team.list')[0].query).toEqual({ page: '1', pageSize: '100', sort: 'name', order: 'desc', q: 'Ana', state: 'active' });
    await expect(screen.getByRole('searchbox', { name: 'Buscar' })).toHaveValue('Ana');
  },
};

// A list reopened on a page past the rows the server serves by number (a URL saved while scrolling
// deep, where pages came by cursor) opens at the top instead of asking for a page it would refuse.
export const ReopenedPastThePageWindowStartsAtTheTop: Story = {
  parameters: { route: { path: '/profile/management?page=1201', pattern: '/profile/management' } },
  play: async () => {
    const t = await table();
    await waitFor(() => expect(within(t).getByText(HUNDRED_THOUSAND[99_999].email as string)).toBeInTheDocument());
    await expect(callsTo('team.list')[0].query).toMatchObject({ page: '1' });
    await expect(callsTo('team.list').some((c) => Number(c.query.page) * 50 > 10_000)).toBe(false);
  },
};

export const NoMatches: Story = {
  parameters: { route: { path: '/profile/management?q=zzzz', pattern: '/profile/management' } },
  play: async () => {
    await expect(await screen.findByText(text('common.list.noMatches', 'es'))).toBeInTheDocument();
    await expect(screen.queryByRole('table')).not.toBeInTheDocument();
  },
};

export const ActionsFollowPermissions: Story = {
  parameters: { session: users.analista },
  play: async () => {
    await table();
    // analista may not create, edit or delete team members (component 6002): nothing is shown.
    await expect(screen.queryByRole('button', { name: text('common.new', 'es') })).not.toBeInTheDocument();
    await expect(screen.queryByRole('button', { name: text('enums.action.delete', 'es') })).not.toBeInTheDocument();
    await expect(screen.queryByRole('button', { name: text('common.edit', 'es') })).not.toBeInTheDocument();
  },
};

export const ManagerOpensNewEditAndDetail: Story = {
  play: async () => {
    await table();
    await userEvent.click(screen.getByRole('button', { name: text('common.new', 'es') }));
    await expectLocation('/profile/management/new');
  },
};

export const RowOpensTheDetail: Story = {
  play: async () => {
    const [first] = await dataRows();
    await userEvent.click(within(first).getByText(HUNDRED_THOUSAND[99_999].email as string));
    await expectLocation('/profile/management/100000');
  },
};

let deleted: string[] = [];
export const DeleteAsksFirst: Story = {
  parameters: {
    api: {
      'team.list': listHandler(() => rows, search),
      'team.delete': (req: StubRequest) => {
        deleted.push(req.params.id);
        rows = rows.filter((r) => String(r.id) !== req.params.id);
        return { ok: true };
      },
    },
  },
  beforeEach: () => {
    rows = teamMembers(3);
    deleted = [];
  },
  play: async () => {
    await table();
    const [first] = await dataRows();
    await expect(first).toHaveTextContent(String(teamMember(2).email));
    await userEvent.click(within(first).getByRole('button', { name: text('enums.action.delete', 'es') }));
    const dialog = await screen.findByRole('dialog');
    await expect(dialog).toHaveTextContent(text('common.confirm.delete', 'es'));
    await userEvent.click(within(dialog).getByRole('button', { name: text('common.cancel', 'es') }));
    await expect(deleted).toEqual([]);
    await userEvent.click(within((await dataRows())[0]).getByRole('button', { name: text('enums.action.delete', 'es') }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: text('enums.action.delete', 'es') }));
    await waitFor(() => expect(deleted).toEqual(['3']));
    await waitFor(async () => expect(await dataRows()).toHaveLength(2));
    await expect(await screen.findByText(text('common.deleted', 'es'))).toBeInTheDocument();
    // The request went with the delete action header.
    await expect(callsTo('team.delete')[0].headers['X-Component-Action']).toBe('delete');
  },
};

export const DeleteRefusedShowsTheCatalogueText: Story = {
  parameters: { api: { 'team.list': listHandler(() => rows, search), 'team.delete': apiError(403, '99982', 'Not enough permissions') } },
  beforeEach: () => {
    rows = teamMembers(2);
  },
  play: async () => {
    await table();
    await userEvent.click(within((await dataRows())[0]).getByRole('button', { name: text('enums.action.delete', 'es') }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: text('enums.action.delete', 'es') }));
    await expect(await screen.findByText(text('errors.server.notEnoughPermissions', 'es'))).toBeInTheDocument();
  },
};

let saved: { blob: Blob; name: string }[] = [];
const captureDownloads = () => {
  saved = [];
  return setDownloadSink((blob, name) => saved.push({ blob, name }));
};
const tricky = () => [{ ...teamMember(0), name: '=cmd|calc', email: '+573001234567@x.co' }, ...teamMembers(451).slice(1)];

export const ExportCsvOfTheCurrentQuery: Story = {
  beforeEach: () => {
    rows = tricky();
    return captureDownloads();
  },
  play: async () => {
    await table();
    await userEvent.click(screen.getByRole('button', { name: text('common.export.csv', 'es') }));
    await waitFor(() => expect(saved).toHaveLength(1));
    // Every row of the query, paged 200 at a time (451 rows: 3 pages).
    await expect(callsTo('team.list').filter((c) => c.query.pageSize === '200').map((c) => c.query.page)).toEqual(['1', '2', '3']);
    const csv = await saved[0].blob.text();
    await expect(saved[0].name).toMatch(/^team-members-\d{8}-\d{4}\.csv$/);
    await expect(csv.startsWith(BOM)).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    await expect(lines).toHaveLength(453);
    // Spanish: ';' between fields, as Excel opens a CSV in Colombia.
    await expect(lines[0]).toBe(['name', 'email', 'roles', 'state', 'createdAt'].map((f) => text(`fields.${f}`, 'es')).join(';'));
    // Formula-looking cells are text; labels are the screen's (enum and role names).
    const first = lines.find((l) => l.includes('cmd'))!;
    await expect(first.startsWith("'=cmd|calc;'+573001234567@x.co;")).toBe(true);
    await expect(first).toContain(text('enums.user-state.active', 'es'));
  },
};

export const ExportXlsxSheetRecipient: Story = {
  beforeEach: () => {
    rows = tricky();
    return captureDownloads();
  },
  play: async () => {
    await table();
    await userEvent.click(screen.getByRole('button', { name: text('common.export.xlsx', 'es') }));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 8000 });
    await expect(saved[0].name).toMatch(/\.xlsx$/);
    const book = XLSX.read(new Uint8Array(await saved[0].blob.arrayBuffer()), { type: 'array' });
    await expect(book.SheetNames).toEqual(['recipient']);
    const sheet = XLSX.utils.sheet_to_json<string[]>(book.Sheets.recipient, { header: 1 });
    await expect(sheet).toHaveLength(452);
    // An XLSX cell is typed: the formula-looking text is a text cell, written as it is (never evaluated).
    await expect(sheet.flat()).toContain('=cmd|calc');
    const cell = Object.values(book.Sheets.recipient).find((c) => (c as { v?: unknown }).v === '=cmd|calc') as { t: string; f?: string };
    await expect([cell.t, cell.f]).toEqual(['s', undefined]);
  },
};

let inbox = notifications.map((n) => ({ ...n }));
export const BulkActionOnSelectedRows: Story = {
  args: fxArgs('fxNotificationsBulk', 'notifications'),
  parameters: {
    session: users.analista,
    route: { path: '/Notifications', pattern: '/Notifications' },
    api: {
      'notifications.list': () => notificationList(inbox),
      'notifications.markRead': (req: StubRequest) => {
        const ids = (req.body as { notificationIds: number[] }).notificationIds;
        inbox = inbox.map((n) => (ids.includes(n.id) ? { ...n, visible: false } : n));
        return { unread: inbox.filter((n) => n.visible).length };
      },
    },
  },
  beforeEach: () => {
    inbox = notifications.map((n) => ({ ...n }));
  },
  play: async () => {
    await table();
    const bulk = screen.getByRole('button', { name: text('screens.notifications.markRead', 'es') });
    await expect(bulk).toBeDisabled();
    const boxes = screen.getAllByRole('checkbox', { name: text('common.list.selectRow', 'es') });
    await userEvent.click(boxes[0]);
    await userEvent.click(boxes[2]);
    await expect(screen.getByTestId('selected-count')).toHaveTextContent('2');
    await userEvent.click(bulk);
    await waitFor(() => expect(callsTo('notifications.markRead')[0]?.body).toEqual({ userId: users.analista.idUser, notificationIds: [1, 3] }));
    await waitFor(() => expect(screen.getByTestId('selected-count')).toHaveTextContent('0'));
    // A whole list searches in the browser.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'créditos');
    await waitFor(async () => expect(await dataRows()).toHaveLength(1));
  },
};

let rotated = 0;
export const RotatedKeyShownOnce: Story = {
  args: fxArgs('fxCredentials', 'settings.apiPermissions'),
  parameters: {
    route: { path: '/profile/apiPermissions', pattern: '/profile/apiPermissions' },
    api: {
      'credentials.list': listHandler(() => credentials),
      'credentials.rotate': () => ({ credential: { ...credentials[0], id: `ck_live_new${++rotated}` }, apiKey: 'ck_live_new1.s3cr3t-v4lue-0123456789' }),
    },
  },
  beforeEach: () => {
    rotated = 0;
  },
  play: async () => {
    await table();
    // The stored secret only ever shows masked; revoked credentials offer no actions.
    await expect(screen.getByText('••••a1b2')).toBeInTheDocument();
    const rowsNow = await dataRows();
    await expect(within(rowsNow[1]).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.click(within(rowsNow[0]).getByRole('button', { name: text('enums.action.edit', 'es') }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: text('enums.action.edit', 'es') }));
    const key = await screen.findByTestId('secret-apiKey');
    await expect(key).toHaveValue('ck_live_new1.s3cr3t-v4lue-0123456789');
    await expect(screen.getByText(text('common.secret.warning', 'es'))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: text('common.secret.done', 'es') }));
    await waitFor(() => expect(screen.queryByTestId('secret-apiKey')).not.toBeInTheDocument());
    await expect(screen.queryByText('ck_live_new1.s3cr3t-v4lue-0123456789')).not.toBeInTheDocument();
  },
};

/** A toolbar action (a `to` in bulkActions) shows even when the list is empty. */
export const ToolbarActionOnAnEmptyList: Story = {
  args: { screen: { ...fx.fxNotificationsBulk, bulkActions: [...(fx.fxNotificationsBulk.bulkActions ?? []), { label: 'menu.notifications', to: '/Notifications/settings' }] } },
  parameters: { session: users.analista, route: { path: '/Notifications', pattern: '/Notifications' }, api: { 'notifications.list': notificationList([]) } },
  play: async () => {
    await expect(await screen.findByText(text('common.empty', 'es'))).toBeInTheDocument();
    await expect(screen.queryByRole('button', { name: text('screens.notifications.markRead', 'es') })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: text('menu.notifications', 'es') }));
    await expectLocation('/Notifications/settings');
  },
};
