import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { largeSchema } from '../../stories/large-form.ts';
import { WidgetDemo } from '../../stories/WidgetDemo.tsx';

const meta = {
  title: 'Runtime/SchemaForm (200 fields)',
  component: WidgetDemo,
  args: { schema: largeSchema(200) },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TwoHundredFields: Story = {
  play: async () => {
    await expect(document.querySelectorAll('input').length).toBeGreaterThanOrEqual(200);
    const first = screen.getByLabelText(/^Campo 1\b/, { selector: 'input' });
    // Typing changes the input at once; the form hears the value after a pause or on leaving it.
    await userEvent.type(first, 'Hola');
    await expect(first).toHaveValue('Hola');
    await expect(JSON.parse(screen.getByTestId('live').textContent!)).toEqual({});
    await userEvent.tab();
    await waitFor(() => expect(JSON.parse(screen.getByTestId('live').textContent!)).toEqual({ field001: 'Hola' }));
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect((await screen.findAllByText('Este campo es obligatorio.')).length).toBe(19);
  },
};
