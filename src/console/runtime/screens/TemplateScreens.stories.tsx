// The template screens (config/screens/templates.yaml, template-form.yaml) over a stubbed API, one
// story per runtime extension they brought: fields shown only while the form's values meet a
// condition and not sent otherwise (`showWhen`: Meta's fields for WhatsApp templates), the SMS
// counter's facts only for SMS (`x-smsWhen`), and the list's translated statuses with Edit held
// back while Meta reviews a row (`editWhen`).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { screenArgs, screenDef } from '../../stories/product-screens.ts';
import { text } from '../../stories/helpers.ts';
import { callsTo, type StubRequest } from '../../stories/stub-api.ts';
import { listHandler } from '../../stories/list-stub.ts';
import FormScreen from './FormScreen.tsx';
import ListScreen from './ListScreen.tsx';

const es = (key: string) => text(key, 'es');
const label = (key: string) => new RegExp(`^${es(`fields.${key}`)}\\s*\\*?$`, 'i');

const template = (over: Record<string, unknown>) => ({
  id: 5, name: 'pedido_listo', channel: 'whatsapp', purpose: 'transactional', content: 'Hola {{1}}, tu pedido está listo.', variables: ['1'],
  category: 'UTILITY', language: 'es', channelId: 4, channelName: 'WhatsApp Atención', status: 'APPROVED', rejectionReason: null,
  providerTemplateId: '1029384756102938', submittedAt: '2026-06-01T15:00:00Z', createdAt: '2026-06-01T15:00:00Z', updatedAt: '2026-06-01T15:00:00Z', ...over,
});

const meta = {
  title: 'Runtime/Template screens',
  component: FormScreen,
  args: screenArgs('templateForm', 'campaigns.templates'),
  parameters: {
    session: users.manager,
    route: { path: '/Campaigns/Templates/new', pattern: '/Campaigns/Templates/new' },
    api: {
      'templates.create': (req: StubRequest) => template({ ...(req.body as object), id: 9, status: 'APPROVED' }),
      'channels.list': { items: [{ id: 4, name: 'WhatsApp Atención' }], total: 1, page: 1, pageSize: 200 },
    },
  },
} satisfies Meta<typeof FormScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** `showWhen` and `x-smsWhen`: WhatsApp's fields only for WhatsApp, the SMS parts only for SMS; hidden values are not sent. */
export const WhatsAppFieldsOnlyForWhatsApp: Story = {
  play: async () => {
    await userEvent.type(await screen.findByLabelText(label('name'), { selector: 'input' }), 'aviso_pago');
    const content = screen.getByRole('textbox', { name: label('content') });
    await userEvent.click(content);
    await userEvent.paste('Hola {{nombre}}, tu pago llegó.');
    // SMS (the prefill): no category or language, and the counter's parts and encoding.
    await expect(screen.queryByRole('combobox', { name: label('category') })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('sms-encoding')).toHaveTextContent('UCS-2'));
    await expect(screen.getByTestId('sms-parts')).toHaveTextContent('1');

    // WhatsApp: Meta's fields appear, the SMS facts go (characters and variables stay).
    await userEvent.click(screen.getByRole('combobox', { name: label('channel') }));
    await userEvent.click(await screen.findByRole('option', { name: es('enums.channel-platform.whatsapp') }));
    await userEvent.click(await screen.findByRole('combobox', { name: label('category') }));
    await userEvent.click(await screen.findByRole('option', { name: es('enums.template-category.UTILITY') }));
    await expect(screen.getByRole('textbox', { name: label('language') })).toHaveValue('es');
    await expect(screen.getByRole('combobox', { name: new RegExp(`^${es('fields.whatsappChannel')}`) })).toBeInTheDocument();
    await expect(screen.queryByTestId('sms-parts')).not.toBeInTheDocument();
    await expect(screen.getByTestId('sms-characters')).toHaveTextContent('31');

    // Back to SMS: what was chosen for WhatsApp stays out of the request.
    await userEvent.click(screen.getByRole('combobox', { name: label('channel') }));
    await userEvent.click(await screen.findByRole('option', { name: es('enums.channel-platform.sms') }));
    await userEvent.click(screen.getByRole('button', { name: es('common.save') }));
    await waitFor(() => expect(callsTo('templates.create')).toHaveLength(1));
    await expect(callsTo('templates.create')[0].body).toEqual({ name: 'aviso_pago', channel: 'sms', purpose: 'transactional', content: 'Hola {{nombre}}, tu pago llegó.' });
  },
};

/** The list: statuses translated and coloured; Edit only on rows Meta is not reviewing. */
export const ListStatusesAndEditWhen: Story = {
  render: () => <ListScreen screenId="templates" menuKey="campaigns.templates" screen={screenDef('templates')} />,
  parameters: {
    route: { path: '/Campaigns/Templates', pattern: '/Campaigns/Templates' },
    api: {
      'templates.list': listHandler(() => [
        template({ id: 1, name: 'en_revision', status: 'PENDING' }),
        template({ id: 2, name: 'rechazada', status: 'REJECTED', rejectionReason: 'INCORRECT_CATEGORY' }),
        template({ id: 3, name: 'recordatorio', channel: 'sms', category: null, language: null, channelId: null, channelName: null }),
      ], ['name', 'content']),
    },
  },
  play: async () => {
    const row = async (name: string) => within((await screen.findByText(name)).closest('tr') as HTMLElement);
    const pending = await row('en_revision');
    await expect(pending.getByText(es('enums.template-status.PENDING'))).toBeInTheDocument();
    await expect(pending.getByText(es('enums.template-category.UTILITY'))).toBeInTheDocument();
    await expect(pending.queryByRole('button', { name: es('common.edit') })).not.toBeInTheDocument();
    const rejected = await row('rechazada');
    await expect(rejected.getByText(es('enums.template-status.REJECTED'))).toBeInTheDocument();
    await expect(rejected.getByRole('button', { name: es('common.edit') })).toBeInTheDocument();
    const sms = await row('recordatorio');
    await expect(sms.getByText(es('enums.template-status.APPROVED'))).toBeInTheDocument();
    await expect(sms.getByText(es('enums.channel-platform.sms'))).toBeInTheDocument();
  },
};
