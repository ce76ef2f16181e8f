import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent } from 'storybook/test';
import { expectLocation, text } from '../stories/helpers.ts';
import { NotFound } from './NotFound.tsx';

const meta = {
  title: 'Shell/NotFound',
  component: NotFound,
  parameters: { route: { app: true, path: '/no/such/page' } },
} satisfies Meta<typeof NotFound>;
export default meta;
type Story = StoryObj<typeof meta>;

export const UnknownRoute: Story = {
  play: async () => {
    await expect(await screen.findByText(text('errors.client.pageNotFound', 'es'))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Ir al inicio' }));
    // Home without a session is the sign-in page.
    await expectLocation('/signin');
  },
};

export const UnknownRouteEnglish: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await expect(await screen.findByText('This page could not be found')).toBeInTheDocument();
    await expect(screen.getByRole('link', { name: 'Go to the home page' })).toBeInTheDocument();
  },
};
