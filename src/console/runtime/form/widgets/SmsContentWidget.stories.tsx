import type { Meta, StoryObj } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { WidgetDemo } from '../../../stories/WidgetDemo.tsx';

// The content field exactly as campaigns.create declares it: the widget is chosen by its key.
const schema = { type: 'object', required: ['content'], properties: { content: { type: 'string', minLength: 1, maxLength: 4096, 'x-widget': 'smsContent', title: 'fields.content' } } } as RJSFSchema;

const meta = {
  title: 'Runtime/Widgets/SMS content',
  component: WidgetDemo,
  args: { schema },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const field = () => screen.findByRole('textbox', { name: /contenido/i });
const fact = (id: string) => screen.getByTestId(id);

export const PartsAndEncoding: Story = {
  play: async () => {
    const input = await field();
    await userEvent.click(input);
    // 160 plain characters fit one SMS; the 161st starts a second part (153 per part).
    await userEvent.paste('a'.repeat(160));
    await waitFor(() => expect(fact('sms-parts')).toHaveTextContent('1'));
    await expect(fact('sms-encoding')).toHaveTextContent('GSM-7');
    await expect(fact('sms-remaining')).toHaveTextContent(/^0$/);
    await userEvent.type(input, 'a');
    await waitFor(() => expect(fact('sms-parts')).toHaveTextContent('2'));
    await expect(fact('sms-characters')).toHaveTextContent('161');
    await expect(fact('sms-remaining')).toHaveTextContent('145');
    // Two parts cost two credits per recipient ($ 2 COP).
    await expect(fact('sms-cost')).toHaveTextContent(/2/);
    await expect(screen.getByTestId('sms-counter')).toHaveAttribute('aria-live', 'polite');

    // One 'á' (not in GSM 03.38) turns the message into UCS-2 and names the character.
    await userEvent.clear(input);
    await userEvent.type(input, 'Hola á');
    await waitFor(() => expect(fact('sms-encoding')).toHaveTextContent('UCS-2'));
    await expect(fact('sms-parts')).toHaveTextContent('1');
    await expect(fact('sms-remaining')).toHaveTextContent('64');
    await expect(screen.getByTestId('sms-non-gsm')).toHaveTextContent(/UCS-2.*á/);
  },
};

export const ContentWarnings: Story = {
  play: async () => {
    const input = await field();
    // A variable counts its average length in the cost; a broken one and an external link are named.
    await userEvent.click(input);
    await userEvent.paste('Hola {{nombre}}, paga en https://ejemplo.com/pago {{a{{b}}}}');
    const warnings = await screen.findByTestId('sms-warnings');
    await expect(warnings).toHaveTextContent('https://ejemplo.com/pago');
    await expect(warnings).toHaveTextContent(/variables mal escritas/i);
    await expect(warnings).toHaveTextContent('{{nombre}}');
    await expect(screen.getByText(/Variables: nombre/)).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.paste('Hola {{nombre}}');
    await waitFor(() => expect(screen.queryByTestId('sms-warnings')).not.toBeInTheDocument());
    // Our own short links (served on this origin under /s, the default SHORT_BASE_URL) pass.
    await userEvent.paste(` mira ${window.location.origin}/s/Ab3dE9x`);
    await waitFor(() => expect(screen.queryByTestId('sms-warnings')).not.toBeInTheDocument());
    await userEvent.paste(' y https://otro.example.com/x');
    await waitFor(() => expect(screen.getByTestId('sms-warnings')).toHaveTextContent('https://otro.example.com/x'));
  },
};

export const English: Story = {
  globals: { locale: 'en' },
  play: async () => {
    const input = await screen.findByRole('textbox', { name: /content/i });
    await userEvent.type(input, '€');
    // The euro sign is in GSM-7's extension table: two septets, still GSM-7.
    await waitFor(() => expect(fact('sms-encoding')).toHaveTextContent('GSM-7'));
    await expect(fact('sms-remaining')).toHaveTextContent('158');
    await expect(screen.getByText('Left in this part:')).toBeInTheDocument();
  },
};
