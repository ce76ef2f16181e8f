import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen } from 'storybook/test';
import { text } from '../../stories/helpers.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

const meta = {
  title: 'Runtime/NotAvailableScreen',
  component: NotAvailableScreen,
  args: { screenId: null, menuKey: 'campaigns.templates' },
} satisfies Meta<typeof NotAvailableScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Templates: Story = {
  play: async () => {
    await expect(screen.getByRole('heading', { name: text('menu.campaigns.templates', 'es') })).toBeInTheDocument();
    await expect(screen.getByText('Esta pantalla aún no está disponible. Estamos trabajando en ella.')).toBeInTheDocument();
    await expect(screen.getByRole('link', { name: 'Ir al inicio' })).toHaveAttribute('href', '/');
  },
};

export const English: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await expect(screen.getByText('This screen is not available yet. We are working on it.')).toBeInTheDocument();
  },
};
