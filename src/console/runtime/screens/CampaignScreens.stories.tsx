// The campaign screens (config/screens/campaign*.yaml) over a stubbed API, one story per runtime
// extension they brought: a wizard step taken only when the kind asks (`when` on steps), the
// header's subtabs as filter presets (`subtabs`), an upload action with its answer's counts
// (`upload` + `result`), a detail tab fed by another operation (`load` on a tab), a navigation
// after an action (`next`), a list refreshed while a row still changes (`refresh`) and a template
// picker whose choice fills the message (`x-options.fill`).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, screen, userEvent, waitFor, within } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { screenArgs, screenDef } from '../../stories/product-screens.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { apiError, callsTo, type StubRequest } from '../../stories/stub-api.ts';
import { listHandler } from '../../stories/list-stub.ts';
import { INVALID_FILE_KEY } from '../form/upload.ts';
import { refreshWanted } from '../refresh.ts';
import { formatDateTime } from '../format.ts';
import DetailScreen from './DetailScreen.tsx';
import FormScreen from './FormScreen.tsx';
import ListScreen from './ListScreen.tsx';
import WizardScreen from './WizardScreen.tsx';

const es = (key: string, options?: Record<string, unknown>) => text(key, 'es', options);
const label = (key: string) => new RegExp(`^${es(`fields.${key}`)}\\s*\\*?$`, 'i');

const campaign = {
  id: 7, name: 'Promo junio', kind: 'open', purpose: 'transactional', channelId: 3, channelName: 'SMS demo', platform: 'sms',
  content: 'Hola {{nombre}}', variables: ['nombre'], scheduledAt: null, firstSendAt: '2026-06-01T15:00:00Z', holdReason: null, holiday: null, sendRule: 'law2300', launchTiming: 'now',
  recurrence: null, label: 'Active', editLock: 'unlockedForEdit',
  maxCompleteInteractions: null, recipients: 3, lastDeploymentId: null, lastDeploymentState: null, createdAt: '2026-06-01T15:00:00Z', updatedAt: '2026-06-01T15:00:00Z',
};
const counts = (c: Partial<Record<string, number>>) => ({ queued: 0, held: 0, sending: 0, inDoubt: 0, sent: 0, delivered: 0, read: 0, failed: 0, rejected: 0, cancelled: 0, other: 0, ...c });
const deployment = (state: string, c: Partial<Record<string, number>>) => ({
  id: 41, campaignId: 7, campaignName: 'Promo junio', channelId: 3, state, purpose: 'transactional', total: 3, reservedCredits: 3, counts: counts(c),
  going: 3, refused: { blocked: 0, duplicate: 0, insufficientCredits: 0, other: 0 },
  scheduledAt: null, startedAt: '2026-06-01T15:05:00Z', finishedAt: state === 'completed' ? '2026-06-01T15:06:00Z' : null, createdAt: '2026-06-01T15:05:00Z',
});

const meta = {
  title: 'Runtime/Campaign screens',
  component: DetailScreen,
  args: screenArgs('campaignDetail', 'campaigns.deploy'),
  parameters: {
    session: users.manager,
    route: { path: '/Campaigns/campaigns/7', pattern: '/Campaigns/campaigns/:id' },
    api: {
      'campaigns.get': campaign,
      'campaigns.recipients': listHandler(() => [], ['phone']),
      'deployments.list': listHandler(() => [], []),
      'channels.list': { items: [{ id: 3, name: 'SMS demo', platform: 'sms' }, { id: 4, name: 'WhatsApp demo', platform: 'whatsapp' }], total: 2, page: 1, pageSize: 200 },
    },
  },
} satisfies Meta<typeof DetailScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** `when` on wizard steps: the date step only for a scheduled campaign; a skipped step's values are not sent. */
export const WizardStepWhen: Story = {
  render: () => <WizardScreen screenId="campaignWizard" menuKey="campaigns.deploy" screen={screenDef('campaignWizard')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns/new', pattern: '/Campaigns/campaigns/new' },
    api: { 'campaigns.create': (req: StubRequest) => ({ ...campaign, ...(req.body as object), id: 9 }) },
  },
  play: async () => {
    const next = () => userEvent.click(screen.getByRole('button', { name: es('common.wizard.next') }));
    await userEvent.type(await screen.findByLabelText(label('name'), { selector: 'input' }), 'Promo junio');
    await userEvent.click(screen.getByRole('combobox', { name: label('channelId') }));
    await userEvent.click(await screen.findByRole('option', { name: 'SMS demo' }));
    // Open (the prefill): the message is the last step.
    await next();
    await userEvent.type(await screen.findByRole('textbox', { name: label('content') }), 'Hola');
    await expect(screen.getByRole('button', { name: es('screens.campaignWizard.submit') })).toBeInTheDocument();
    await expect(screen.queryByText(es('screens.campaignWizard.schedule'))).not.toBeInTheDocument();
    // Scheduled: a date step appears after the message.
    await userEvent.click(screen.getByRole('button', { name: es('common.wizard.back') }));
    await userEvent.click(await screen.findByRole('combobox', { name: label('kind') }));
    await userEvent.click(await screen.findByRole('option', { name: es('enums.campaign-kind.scheduled') }));
    await next();
    await next();
    await screen.findByRole('heading', { level: 2, name: es('screens.campaignWizard.schedule') });
    const when = await screen.findByLabelText(label('scheduledAt'));
    fireEvent.change(when, { target: { value: '2030-01-02T10:00' } });
    fireEvent.focusOut(when);
    await userEvent.click(screen.getByRole('button', { name: es('screens.campaignWizard.submit') }));
    await expectLocation('/Campaigns/campaigns/9?tab=1');
    const body = callsTo('campaigns.create')[0].body as Record<string, unknown>;
    await expect(body).toMatchObject({ name: 'Promo junio', kind: 'scheduled', purpose: 'commercial', channelId: 3, content: 'Hola' });
    // The local date and time goes as an instant.
    await expect(new Date(String(body.scheduledAt)).getTime()).toBe(new Date('2030-01-02T10:00').getTime());
    await expect(body).not.toHaveProperty('recurrence');
  },
};

const templates = [
  { id: 1, name: 'recordatorio_pago', channel: 'sms', purpose: 'transactional', status: 'APPROVED', content: 'Hola {{nombre}}, tu pago vence mañana.' },
  { id: 2, name: 'aviso_en_revision', channel: 'sms', purpose: 'commercial', status: 'PENDING', content: 'Aún en revisión.' },
  { id: 3, name: 'colibri_aviso', channel: 'whatsapp', purpose: 'transactional', status: 'APPROVED', content: 'Hola {{1}}, tienes un aviso.' },
];

/** `x-options.fill`: a template of the channel's type fills the message and the purpose; the text stays editable; only the campaign's fields are sent. */
export const WizardTemplateFillsContent: Story = {
  render: () => <WizardScreen screenId="campaignWizard" menuKey="campaigns.deploy" screen={screenDef('campaignWizard')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns/new', pattern: '/Campaigns/campaigns/new' },
    api: {
      'campaigns.create': (req: StubRequest) => ({ ...campaign, ...(req.body as object), id: 9 }),
      'templates.list': listHandler(() => templates, ['name', 'content']),
    },
  },
  play: async () => {
    await userEvent.type(await screen.findByLabelText(label('name'), { selector: 'input' }), 'Cobro junio');
    await userEvent.click(screen.getByRole('combobox', { name: label('channelId') }));
    await userEvent.click(await screen.findByRole('option', { name: 'SMS demo' }));
    await userEvent.click(screen.getByRole('button', { name: es('common.wizard.next') }));

    // The message step: the approved SMS templates (the channel's type), chosen with the keyboard.
    const picker = await screen.findByRole('combobox', { name: label('templateId') });
    await waitFor(() => expect(picker).toBeEnabled());
    picker.focus();
    await userEvent.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: 'recordatorio_pago' });
    await expect(screen.queryByRole('option', { name: 'aviso_en_revision' })).not.toBeInTheDocument();
    await expect(screen.queryByRole('option', { name: 'colibri_aviso' })).not.toBeInTheDocument();
    await expect(callsTo('templates.list').at(-1)!.query).toMatchObject({ channel: 'sms', status: 'APPROVED' });
    await userEvent.keyboard('{ArrowDown}{Enter}');
    const content = screen.getByRole('textbox', { name: label('content') });
    await waitFor(() => expect(content).toHaveValue('Hola {{nombre}}, tu pago vence mañana.'));
    // The SMS counter reads the filled text.
    await waitFor(() => expect(screen.getByTestId('sms-characters')).toHaveTextContent('38'));
    await expect(screen.getByText(es('common.options.filled', { fields: `${es('fields.content')}, ${es('fields.purpose')}` }))).toBeInTheDocument();

    // Still the user's text.
    await userEvent.type(content, ' Gracias.');
    await userEvent.click(screen.getByRole('button', { name: es('screens.campaignWizard.submit') }));
    await expectLocation('/Campaigns/campaigns/9?tab=1');
    // The template's purpose replaced the prefill; the template goes with the campaign (a WhatsApp campaign sends it); the channel's type stays in the browser.
    await expect(callsTo('campaigns.create')[0].body).toEqual({ name: 'Cobro junio', kind: 'open', purpose: 'transactional', channelId: 3, templateId: 1, content: 'Hola {{nombre}}, tu pago vence mañana. Gracias.' });
  },
};

/** `subtabs`: the header's subtab (?tab=<key>) presets the kind filter the server receives. */
export const ListSubtabPresets: Story = {
  render: () => <ListScreen screenId="campaigns" menuKey="campaigns.deploy" screen={screenDef('campaigns')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns?tab=campaigns.scheduled', pattern: '/Campaigns/campaigns' },
    api: { 'campaigns.list': listHandler(() => [{ ...campaign, kind: 'scheduled', name: 'Recordatorio cita' }, campaign], ['name']) },
  },
  play: async () => {
    await screen.findByText('Recordatorio cita');
    await expect(callsTo('campaigns.list')[0].query).toMatchObject({ kind: 'scheduled' });
    await expect(screen.queryByText('Promo junio')).not.toBeInTheDocument();
    // The filter shows the preset.
    await expect(screen.getByRole('combobox', { name: label('kind') })).toHaveTextContent(es('enums.campaign-kind.scheduled'));
  },
};

/** `loadError`: a list that cannot load says so in the screen's own words, then why, and loads again on request. */
let listFailures = 0;
export const ListLoadFailsThenReloads: Story = {
  render: () => <ListScreen screenId="campaigns" menuKey="campaigns.deploy" screen={screenDef('campaigns')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns', pattern: '/Campaigns/campaigns' },
    api: { 'campaigns.list': (req: StubRequest) => (listFailures++ === 0 ? apiError(503, '99946', 'queue error') : listHandler(() => [campaign], ['name'])(req)) },
  },
  beforeEach: () => { listFailures = 0; },
  play: async () => {
    const alert = await screen.findByRole('alert');
    await expect(alert).toHaveTextContent(es('errors.client.loadCampaigns'));
    await expect(alert).toHaveTextContent(es('errors.server.queueError'));
    await userEvent.click(within(alert).getByRole('button', { name: es('common.reload') }));
    await screen.findByText('Promo junio');
    await expect(screen.queryByText(es('errors.client.loadCampaigns'))).not.toBeInTheDocument();
  },
};

/** `upload` + `result`: the recipients file goes up from the tab's action and its counts show. */
export const UploadActionWithResult: Story = {
  parameters: {
    route: { path: '/Campaigns/campaigns/7?tab=1', pattern: '/Campaigns/campaigns/:id' },
    api: {
      'campaigns.uploadRecipients': { fileName: 'clientes.csv', rows: 4, pass: 3, warn: 0, fail: 1, error: 0, duplicates: 0, headers: ['telefono', 'nombre'], encoding: 'utf-8', separator: ';' },
      'campaigns.recipients': listHandler(() => [{ row: 2, phone: '3001234567', result: 'pass', problems: [], variables: 'nombre=Ana' }, { row: 5, phone: '123', result: 'fail', problems: [{ code: 'invalidPhone', column: 'telefono' }, { code: 'fixedLine', column: 'telefono' }], variables: 'nombre=Luis' }], ['phone']),
    },
  },
  play: async () => {
    const panel = await screen.findByRole('tabpanel');
    await userEvent.click(await within(panel).findByRole('button', { name: es('screens.campaignRecipients.upload') }));
    const input = within(panel).getByTestId('action-file') as HTMLInputElement;
    await expect(input.accept).toBe('.csv,.xls,.xlsx');
    // A file of the wrong type is refused before anything is sent.
    await userEvent.upload(input, new File(['x'], 'numeros.pdf', { type: 'application/pdf' }), { applyAccept: false });
    await expect(await screen.findByRole('alert')).toHaveTextContent(es(INVALID_FILE_KEY));
    await expect(callsTo('campaigns.uploadRecipients')).toHaveLength(0);
    await userEvent.upload(input, new File(['telefono;nombre\n3001234567;Ana\n'], 'clientes.csv', { type: 'text/csv' }));
    const box = await screen.findByTestId('action-result');
    await expect(callsTo('campaigns.uploadRecipients')[0].params).toEqual({ id: '7' });
    await expect(within(box).getByText(es('fields.pass'))).toBeInTheDocument();
    await expect(box.querySelector('dd[data-field="pass"]')).toHaveTextContent('3');
    await expect(box.querySelector('dd[data-field="fail"]')).toHaveTextContent('1');
    // The rows list is fetched again after the upload: the refused row with its reason.
    // The row's problems in words with their column, never the codes.
    await within(panel).findByText(`${es('errors.fileProcessor.invalidPhone')} (telefono); ${es('errors.rowNotice.fixedLine')} (telefono)`);
  },
};

/** The pre-launch summary (campaigns.preview): the summary tab and the launch confirmation read it. */
const preview = {
  recipients: 4, staged: 4, estimated: false, goNow: 2, wait: 1, waitUntil: '2026-06-02T12:00:00Z', blocked: 1, duplicates: 0, duplicateHours: 24, invalid: 1,
  parts: 3, partsMin: 1, partsMax: 2, encoding: 'GSM-7 + UCS-2', ucs2Characters: ['í'], ucs2Rows: 1,
  samples: ['+573001234701: Hola Ana', '+573001234702: Hola María'], credits: 3, balance: 1000000, enough: true, refusedLinks: [],
  outsideWindow: null, windowCode: null, unmappedParameters: [], emptyParameters: null,
};

/** `load` on a tab: the pre-launch summary comes from campaigns.preview when the tab opens. */
export const DetailTabLoad: Story = {
  parameters: {
    route: { path: '/Campaigns/campaigns/7?tab=2', pattern: '/Campaigns/campaigns/:id' },
    api: { 'campaigns.preview': preview },
  },
  play: async () => {
    const panel = await screen.findByRole('tabpanel');
    await waitFor(() => expect(panel.querySelector('dd[data-field="goNow"]')).toHaveTextContent('2'));
    // The checklist first, worst first: what waits and until when, what is refused, then what goes and the cost.
    const lines = [...within(panel).getByTestId('checklist').querySelectorAll('li')];
    await expect(lines.map((l) => l.getAttribute('data-tone'))).toEqual(['warning', 'warning', 'warning', 'info', 'success', 'success']);
    await expect(lines[0]).toHaveTextContent(`1 mensajes esperan el horario de envío hasta el ${formatDateTime('2026-06-02T12:00:00Z')}`);
    await expect(lines[5]).toHaveTextContent('Cuesta 3 créditos; el saldo es 1.000.000.');
    // Facts that do not apply to an SMS campaign (WhatsApp's window and template cells) are not listed.
    await expect(panel.querySelector('dd[data-field="outsideWindow"]')).toBeNull();
    await expect(panel.querySelector('dd[data-field="emptyParameters"]')).toBeNull();
    await expect(callsTo('campaigns.preview')[0].params).toEqual({ id: '7' });
    await expect(panel.querySelector('dd[data-field="wait"]')).toHaveTextContent('1');
    await expect(panel.querySelector('dd[data-field="blocked"]')).toHaveTextContent('1');
    await expect(panel.querySelector('dd[data-field="balance"]')).toHaveTextContent('1.000.000');
    await expect(panel.querySelector('dd[data-field="enough"]')).toHaveTextContent(es('common.yes'));
    // The parts' spread, the characters that force UCS-2 and the rendered messages, one per line.
    await expect(panel.querySelector('dd[data-field="partsMax"]')).toHaveTextContent('2');
    await expect(panel.querySelector('dd[data-field="ucs2Characters"]')).toHaveTextContent('í');
    // The first messages as the phone shows them: a bubble under its number, with its parts.
    const bubbles = within(panel.querySelector('dd[data-field="samples"]') as HTMLElement);
    await expect(bubbles.getByText('Hola María')).toBeInTheDocument();
    await expect(bubbles.getByText('+573001234702')).toBeInTheDocument();
    await expect(bubbles.getAllByTestId('bubble-parts')[1]).toHaveTextContent('1 parte · UCS-2');
  },
};

/** `next`: Launch confirms (stating the credits it reserves: `confirmLoad`), then shows the deployments tab with the new run. */
export const ActionNext: Story = {
  parameters: {
    api: {
      'campaigns.preview': preview,
      'campaigns.launch': deployment('running', { queued: 3 }),
      'deployments.list': listHandler(() => [deployment('running', { queued: 1, delivered: 2 })], []),
    },
  },
  play: async () => {
    // Launch is the page's main action: the one filled button.
    const launch = await screen.findByRole('button', { name: es('screens.campaignDetail.launch') });
    await expect(launch.className).toMatch(/MuiButton-contained/);
    await expect(screen.getByRole('button', { name: es('screens.campaignDetail.sendTest') }).className).toMatch(/MuiButton-outlined/);
    await userEvent.click(launch);
    const dialog = await screen.findByRole('dialog');
    await expect(dialog).toHaveTextContent('se reservarán 3 créditos de su saldo de 1.000.000');
    await expect(callsTo('campaigns.preview')[0].params).toEqual({ id: '7' });
    await userEvent.click(within(dialog).getByRole('button', { name: es('screens.campaignDetail.launch') }));
    await expectLocation('/Campaigns/campaigns/7?tab=3');
    await expect(callsTo('campaigns.launch')[0].params).toEqual({ id: '7' });
    const panel = await screen.findByRole('tabpanel');
    await within(panel).findByTestId('progress-cell');
    // Pause and cancel on a running deployment; not resume or delete.
    await expect(within(panel).getByRole('button', { name: es('screens.campaignDeployments.pause') })).toBeInTheDocument();
    await expect(within(panel).queryByRole('button', { name: es('screens.campaignDeployments.play') })).not.toBeInTheDocument();
    await expect(within(panel).queryByRole('button', { name: es('enums.action.delete') })).not.toBeInTheDocument();
  },
};

/**
 * `labelContext: launchTiming`: a commercial campaign on a holiday says when it really goes and why,
 * on the button and in the confirmation; `notifyContext: state`: a launch still preparing reports
 * its progress, not counts the job has not reached.
 */
export const LaunchHeldAndPreparing: Story = {
  parameters: {
    api: {
      'campaigns.get': { ...campaign, purpose: 'commercial', firstSendAt: '2026-12-09T12:00:00Z', holdReason: 'holiday', holiday: 'inmaculadaConcepcion', launchTiming: 'holiday' },
      'campaigns.preview': preview,
      'campaigns.launch': { ...deployment('preparing', { held: 100 }), total: 155, enqueued: 100, going: 0 },
    },
  },
  play: async () => {
    const launch = es('screens.campaignDetail.launch', { context: 'holiday', firstSendAt: formatDateTime('2026-12-09T12:00:00Z') });
    await userEvent.click(await screen.findByRole('button', { name: launch }));
    const dialog = await screen.findByRole('dialog');
    await expect(dialog).toHaveTextContent('Inmaculada Concepción');
    await expect(dialog).toHaveTextContent('3 destinatarios');
    await userEvent.click(within(dialog).getByRole('button', { name: launch }));
    await expect(await screen.findByText(/100 de 155 mensajes escritos/)).toBeInTheDocument();
  },
};

/** `confirmLoad` refused (the campaign cannot be launched as it is): the reason shows, no confirmation and no launch. */
export const LaunchPreviewRefused: Story = {
  parameters: { api: { 'campaigns.preview': apiError(400, '99985', 'Invalid campaign'), 'campaigns.launch': deployment('running', { queued: 3 }) } },
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: es('screens.campaignDetail.launch') }));
    await expect(await screen.findByText(es('errors.server.invalidCampaign'))).toBeInTheDocument();
    await expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await expect(callsTo('campaigns.launch')).toHaveLength(0);
  },
};

/** `when` as a list: what has already run is not offered "Lanzar" but "Volver a lanzar", which says so. */
export const RelaunchAfterARun: Story = {
  parameters: { api: { 'campaigns.get': { ...campaign, lastDeploymentId: 41, lastDeploymentState: 'completed' }, 'campaigns.preview': preview } },
  play: async () => {
    const again = await screen.findByRole('button', { name: es('screens.campaignDetail.relaunch') });
    await expect(screen.queryByRole('button', { name: es('screens.campaignDetail.launch') })).not.toBeInTheDocument();
    await userEvent.click(again);
    const dialog = await screen.findByRole('dialog');
    await expect(dialog).toHaveTextContent(/ya se envió/);
    await expect(dialog).toHaveTextContent('reservando 3 créditos de su saldo de 1.000.000');
  },
};

/** `refresh` + the progress cell: a running deployment is fetched again until it completes, then no more; its actions follow its state. */
export const ListRefreshWhile: Story = {
  render: () => <ListScreen screenId="campaignDeployments" menuKey="campaigns.deploy" screen={{ ...screenDef('campaignDeployments'), refresh: { ...screenDef('campaignDeployments').refresh!, ms: 500 } }} params={{ campaignId: 7 }} nested />,
  parameters: {
    api: {
      'deployments.list': (() => {
        let n = 0;
        return (req: StubRequest) => {
          n += 1;
          const row = n < 3 ? deployment('running', { queued: 3 - n, delivered: n }) : deployment('completed', { delivered: 2, failed: 1 });
          return { ...listHandler(() => [row], [])(req) };
        };
      })(),
    },
  },
  play: async () => {
    const bar = await screen.findByRole('img', { name: new RegExp(es('fields.queued')) });
    await expect(bar).toBeInTheDocument();
    // A running run can be paused or cancelled: the actions column is there.
    await expect(screen.getByRole('columnheader', { name: es('common.actions') })).toBeInTheDocument();
    // Refreshed in place until the run completes: delivered and failed, in the bar's name.
    await waitFor(() => expect(screen.getByRole('img', { name: new RegExp(`${es('fields.failed')} 1`) })).toBeInTheDocument(), { timeout: 5000 });
    // Completed: it can no longer be paused; what did not arrive can be resent (the column stays for that).
    await waitFor(() => expect(screen.queryByRole('button', { name: es('screens.campaignDeployments.pause') })).not.toBeInTheDocument());
    await expect(screen.getByRole('columnheader', { name: es('common.actions') })).toBeInTheDocument();
    await expect(screen.getByRole('img').getAttribute('aria-label')).toContain(`${es('fields.delivered')} 2`);
    await expect(callsTo('deployments.list')).toHaveLength(3);
    await expect(callsTo('deployments.list')[0].query).toMatchObject({ campaignId: '7' });
    // Completed: the condition no longer holds, so the rounds stop.
    await expect(refreshWanted(screenDef('campaignDeployments').refresh, [deployment('completed', {})])).toBe(false);
    await expect(refreshWanted(screenDef('campaignDeployments').refresh, [deployment('running', {})])).toBe(true);
    // Completed with receipts still due (sent, not yet delivered): still refreshed.
    await expect(refreshWanted(screenDef('campaignDeployments').refresh, [deployment('completed', { sent: 1, delivered: 2 })])).toBe(true);
  },
};

/** The edit form: loads the campaign, sends its fields and returns to the detail (`{id}` from the route). */
export const EditFormBackToDetail: Story = {
  render: () => <FormScreen screenId="campaignForm" menuKey={null} screen={screenDef('campaignForm')} />,
  parameters: {
    route: { path: '/Campaigns/campaigns/7/edit', pattern: '/Campaigns/campaigns/:id/edit' },
    api: { 'campaigns.update': (req: StubRequest) => ({ ...campaign, ...(req.body as object) }) },
  },
  play: async () => {
    const name = await screen.findByLabelText(label('name'), { selector: 'input' });
    await waitFor(() => expect(name).toHaveValue('Promo junio'));
    await userEvent.clear(name);
    await userEvent.type(name, 'Promo julio');
    await userEvent.click(screen.getByRole('button', { name: es('common.save') }));
    await expectLocation('/Campaigns/campaigns/7');
    await expect(callsTo('campaigns.update')[0].params).toEqual({ id: '7' });
    await expect(callsTo('campaigns.update')[0].body).toMatchObject({ name: 'Promo julio', content: 'Hola {{nombre}}', channelId: 3 });
  },
};
