import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen } from 'storybook/test';
import { text } from '../../stories/helpers.ts';
import MessageScreen from './MessageScreen.tsx';

const meta = {
  title: 'Runtime/MessageScreen',
  component: MessageScreen,
  args: { screenId: 'notActive', menuKey: null },
} satisfies Meta<typeof MessageScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AccountDisabled: Story = {
  play: async () => {
    await expect(screen.getByRole('heading', { name: text('screens.notActive.title', 'es') })).toBeInTheDocument();
    await expect(screen.getByRole('status')).toHaveTextContent(text('errors.client.accountDisabled', 'es'));
  },
};

export const AccountBeingVerified: Story = {
  args: { screenId: 'validation' },
  play: async () => {
    await expect(screen.getByRole('status')).toHaveTextContent(text('errors.client.accountVerifying', 'es'));
  },
};

export const AccountBeingVerifiedEnglish: Story = {
  args: { screenId: 'validation' },
  globals: { locale: 'en' },
  play: async () => {
    await expect(screen.getByRole('status')).toHaveTextContent(text('errors.client.accountVerifying', 'en'));
  },
};
