// `x-options.fill`: a picker whose choice copies properties of the chosen row into other fields of
// the form (a campaign's template fills its content and purpose). The filled fields stay editable,
// a fill may feed another picker's cascade (a channel's type filters the templates), and the
// picker is used with the keyboard alone.
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { users } from '../../../stories/fixtures.ts';
import { text } from '../../../stories/helpers.ts';
import { callsTo } from '../../../stories/stub-api.ts';
import { listHandler } from '../../../stories/list-stub.ts';
import { WidgetDemo } from '../../../stories/WidgetDemo.tsx';

const es = (key: string, options?: Record<string, unknown>) => text(key, 'es', options);
const label = (key: string) => new RegExp(`^${es(`fields.${key}`)}\\s*\\*?$`, 'i');

const templateRows = [
  { id: 1, name: 'recordatorio_pago', channel: 'sms', purpose: 'transactional', status: 'APPROVED', content: 'Hola {{nombre}}, tu pago vence mañana.' },
  { id: 2, name: 'promo_fin_de_semana', channel: 'sms', purpose: 'commercial', status: 'APPROVED', content: 'Este fin de semana 2x1 en toda la tienda.' },
  { id: 3, name: 'en_revision', channel: 'sms', purpose: 'commercial', status: 'PENDING', content: 'Aún no.' },
  { id: 4, name: 'colibri_aviso', channel: 'whatsapp', purpose: 'transactional', status: 'APPROVED', content: 'Hola {{1}}, tienes un aviso.' },
];

const schema = {
  type: 'object',
  required: ['channelId', 'content'],
  properties: {
    channelId: { type: 'integer', title: 'fields.channelId', 'x-options': { operation: 'channels.list', value: 'id', label: 'name', params: { pageSize: 200 }, fill: { platform: 'platform' } } },
    platform: { type: 'string', title: 'fields.platform', 'x-widget': 'hidden' },
    templateId: { type: 'integer', title: 'fields.templateId', 'x-options': { operation: 'templates.list', value: 'id', label: 'name', params: { channel: '$f.platform', status: 'APPROVED' }, fill: { content: 'content', purpose: 'purpose' } } },
    purpose: { type: 'string', enum: ['commercial', 'transactional', 'otp'], 'x-enum': 'message-purpose', title: 'fields.purpose' },
    content: { type: 'string', title: 'fields.content' },
  },
} as RJSFSchema;

const meta = {
  title: 'Runtime/Options that fill other fields',
  component: WidgetDemo,
  args: { schema, initial: { purpose: 'commercial' } },
  parameters: {
    session: users.manager,
    api: {
      'channels.list': { items: [{ id: 3, name: 'SMS demo', platform: 'sms' }, { id: 4, name: 'WhatsApp demo', platform: 'whatsapp' }], total: 2, page: 1, pageSize: 200 },
      'templates.list': listHandler(() => templateRows, ['name', 'content']),
    },
  },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const live = () => JSON.parse(screen.getByTestId('live').textContent || '{}') as Record<string, unknown>;
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent || '{}') as Record<string, unknown>;

/** Choosing with the keyboard fills the content and purpose; they stay editable; a new channel type empties the choice. */
export const FillsFieldsFromTheChosenRow: Story = {
  play: async () => {
    // No channel yet: the templates wait for its type.
    const templates = await screen.findByRole('combobox', { name: label('templateId') });
    await expect(templates).toBeDisabled();
    await userEvent.click(screen.getByRole('combobox', { name: label('channelId') }));
    await userEvent.click(await screen.findByRole('option', { name: 'SMS demo' }));
    // The channel's row filled the hidden type, which the templates' source reads.
    await waitFor(() => expect(live().platform).toBe('sms'));
    await waitFor(() => expect(templates).toBeEnabled());

    // Keyboard only: focus, open, move, choose.
    templates.focus();
    await userEvent.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: 'recordatorio_pago' });
    await expect(callsTo('templates.list').at(-1)!.query).toMatchObject({ channel: 'sms', status: 'APPROVED' });
    // Only the approved templates of the channel's type are offered.
    await expect(screen.queryByRole('option', { name: 'en_revision' })).not.toBeInTheDocument();
    await expect(screen.queryByRole('option', { name: 'colibri_aviso' })).not.toBeInTheDocument();
    await userEvent.keyboard('{ArrowDown}{Enter}');

    const content = screen.getByRole('textbox', { name: label('content') });
    await waitFor(() => expect(content).toHaveValue('Hola {{nombre}}, tu pago vence mañana.'));
    await expect(screen.getByRole('combobox', { name: label('purpose') })).toHaveTextContent(es('enums.message-purpose.transactional'));
    await expect(templates).toHaveValue('recordatorio_pago');
    // Said in the picker's helper line, a polite live region (the hidden type is not named).
    const said = es('common.options.filled', { fields: `${es('fields.content')}, ${es('fields.purpose')}` });
    await expect(screen.getByText(said)).toHaveAttribute('role', 'status');
    await expect(templates).toHaveAccessibleDescription(said);

    // The filled text is the user's to change.
    await userEvent.clear(content);
    await userEvent.type(content, 'Hola {{{{nombre}}, cambié el texto.');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(submitted()).toEqual({ channelId: 3, platform: 'sms', templateId: 1, purpose: 'transactional', content: 'Hola {{nombre}}, cambié el texto.' }));

    // Another channel type: the template no longer applies and is emptied; the text stays.
    await userEvent.click(screen.getByRole('combobox', { name: label('channelId') }));
    await userEvent.click(await screen.findByRole('option', { name: 'WhatsApp demo' }));
    await waitFor(() => expect(live()).toMatchObject({ platform: 'whatsapp', content: 'Hola {{nombre}}, cambié el texto.' }));
    await expect(live().templateId).toBeUndefined();
    await waitFor(() => expect(templates).toHaveValue(''));
  },
};

/** Clearing the choice changes nothing else; choosing another template refills. */
export const ClearingKeepsTheFilledValues: Story = {
  args: { schema, initial: { channelId: 3, platform: 'sms', purpose: 'otp', content: 'Mi texto' } },
  play: async () => {
    const templates = await screen.findByRole('combobox', { name: label('templateId') });
    await userEvent.click(templates);
    await userEvent.click(await screen.findByRole('option', { name: 'promo_fin_de_semana' }));
    const content = screen.getByRole('textbox', { name: label('content') });
    await waitFor(() => expect(content).toHaveValue('Este fin de semana 2x1 en toda la tienda.'));
    await expect(live().purpose).toBe('commercial');
    await userEvent.click(screen.getByRole('button', { name: /clear|borrar|limpiar/i }));
    await waitFor(() => expect(live().templateId).toBeUndefined());
    await expect(content).toHaveValue('Este fin de semana 2x1 en toda la tienda.');
    await expect(live().purpose).toBe('commercial');
    await userEvent.click(templates);
    await userEvent.click(await screen.findByRole('option', { name: 'recordatorio_pago' }));
    await waitFor(() => expect(content).toHaveValue('Hola {{nombre}}, tu pago vence mañana.'));
    await expect(live()).toMatchObject({ templateId: 1, purpose: 'transactional' });
  },
};
