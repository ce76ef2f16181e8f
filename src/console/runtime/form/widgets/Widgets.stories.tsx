import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { SchemaForm } from '../SchemaForm.tsx';
import { SANDBOX_CAPTCHA_TOKEN } from './CaptchaWidget.tsx';

/** One field rendered by the schema form, so the widget is chosen by the ranked testers. */
function WidgetDemo({ schema }: { schema: RJSFSchema }) {
  const [data, setData] = useState<Record<string, unknown>>({});
  const [submitted, setSubmitted] = useState<string>('');
  return (
    <Box sx={{ p: 3, maxWidth: 420 }}>
      <SchemaForm cacheKey={`demo-${Object.keys(schema.properties ?? {}).join()}`} schema={schema} formData={data} onChange={setData} onSubmit={(d) => setSubmitted(JSON.stringify(d))}>
        <Button type="submit" variant="contained" sx={{ mt: 2 }}>
          OK
        </Button>
      </SchemaForm>
      <output data-testid="submitted">{submitted}</output>
    </Box>
  );
}

const meta = {
  title: 'Runtime/Widgets',
  component: WidgetDemo,
  args: { schema: { type: 'object', properties: {} } },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Password: Story = {
  args: { schema: { type: 'object', required: ['password'], properties: { password: { type: 'string', format: 'password-policy', 'x-widget': 'password', title: 'fields.password' } } } as RJSFSchema },
  play: async () => {
    const input = screen.getByLabelText(/^contraseña/i, { selector: 'input' });
    await expect(input).toHaveAttribute('type', 'password');
    await expect(screen.getByText(/De 8 a 256 caracteres/)).toBeInTheDocument();
    await userEvent.type(input, 'Segura#2025');
    await userEvent.click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    await expect(input).toHaveAttribute('type', 'text');
    await expect(input).toHaveValue('Segura#2025');
    await userEvent.click(screen.getByRole('button', { name: 'Ocultar contraseña' }));
    await expect(input).toHaveAttribute('type', 'password');
  },
};

export const PasswordEnglish: Story = {
  ...Password,
  globals: { locale: 'en' },
  play: async () => {
    const input = screen.getByLabelText(/^password/i, { selector: 'input' });
    await userEvent.type(input, 'weak');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(await screen.findByText(/The password must be 8 to 256 characters long/)).toBeInTheDocument();
    await expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  },
};

export const Phone: Story = {
  args: { schema: { type: 'object', properties: { phone: { type: 'string', format: 'phone-co', 'x-widget': 'phone', title: 'fields.phone' } } } as RJSFSchema },
  play: async () => {
    await expect(screen.getByText('+57')).toBeInTheDocument();
    const input = screen.getByLabelText(/teléfono/i, { selector: 'input' });
    await expect(input).toHaveAttribute('type', 'tel');
    await userEvent.type(input, '2001234567');
    await userEvent.tab();
    await expect(await screen.findByText(/Escribe un número colombiano de 10 dígitos/)).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, '3001234567');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('submitted')).toHaveTextContent('{"phone":"3001234567"}'));
  },
};

export const Captcha: Story = {
  args: { schema: { type: 'object', required: ['captchaToken'], properties: { captchaToken: { type: 'string', minLength: 1, 'x-widget': 'captcha', title: 'fields.captchaToken' } } } as RJSFSchema },
  play: async () => {
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(await screen.findByText('Confirma que no eres un robot.')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('No soy un robot'));
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('submitted')).toHaveTextContent(JSON.stringify({ captchaToken: SANDBOX_CAPTCHA_TOKEN })));
  },
};

export const CaptchaEnglish: Story = {
  ...Captcha,
  globals: { locale: 'en' },
  play: async () => {
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(await screen.findByText('Confirm that you are not a robot.')).toBeInTheDocument();
    await expect(screen.getByLabelText('I am not a robot')).toBeInTheDocument();
  },
};

export const EnumTranslated: Story = {
  args: { schema: { type: 'object', properties: { documentType: { type: 'string', enum: ['CC', 'NIT'], title: 'fields.documentType', description: 'Colombian identity documents.' } } } as RJSFSchema },
  play: async () => {
    // The developer note in `description` is not shown; enum values read in the user's language.
    await expect(screen.queryByText('Colombian identity documents.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox'));
    await expect(await screen.findByRole('option', { name: 'Cédula de ciudadanía' })).toBeInTheDocument();
  },
};
