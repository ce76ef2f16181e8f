import type { Meta, StoryObj } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { WidgetDemo } from '../../../stories/WidgetDemo.tsx';

// The event form's example call: a read-only text the server computes, with a Copy button.
const schema = { type: 'object', properties: { exampleCall: { type: 'string', 'x-widget': 'code', title: 'fields.exampleCall' } } } as RJSFSchema;
const call = "curl -X POST 'https://colibri.test/v1/events/pedido.enviado' \\\n  -d '{\"to\":\"3001234567\",\"variables\":{\"nombre\":\"<b>valor</b>\"}}'";

const meta = {
  title: 'Runtime/Widgets/Code (read-only, copy)',
  component: WidgetDemo,
  args: { schema },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ShowsAndCopies: Story = {
  args: { initial: { exampleCall: call } },
  play: async () => {
    const box = await screen.findByTestId('code-root_exampleCall');
    // Shown as text (markup inside stays text), on its lines, not editable.
    await expect(box).toHaveTextContent('/v1/events/pedido.enviado');
    await expect(box.textContent).toBe(call);
    await expect(screen.queryByRole('textbox')).toBeNull();
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void writes.push(t) } });
    await userEvent.click(screen.getByRole('button', { name: 'Copiar' }));
    await waitFor(() => expect(writes).toEqual([call]));
    await expect((await screen.findAllByText('Copiado.')).length).toBeGreaterThan(0);
    // Never sent back as something the user typed: the form submits what it was given.
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(JSON.parse(screen.getByTestId('submitted').textContent || '{}')).toEqual({ exampleCall: call }));
  },
};

export const BeforeTheRecordExists: Story = {
  play: async () => {
    await expect(await screen.findByText('Aparece cuando guardes.')).toBeInTheDocument();
    await expect(screen.queryByRole('button', { name: 'Copiar' })).toBeNull();
  },
};
