import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, waitFor } from 'storybook/test';
import { text } from '../stories/helpers.ts';
import { OfflineIndicator } from './OfflineIndicator.tsx';

const setOnline = (online: boolean) => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
};

const meta = {
  title: 'Shell/OfflineIndicator',
  component: OfflineIndicator,
  beforeEach: () => () => setOnline(true),
} satisfies Meta<typeof OfflineIndicator>;
export default meta;
type Story = StoryObj<typeof meta>;

export const GoesOfflineAndBack: Story = {
  play: async () => {
    await expect(screen.queryByRole('status')).not.toBeInTheDocument();
    setOnline(false);
    await expect(await screen.findByRole('status')).toHaveTextContent(text('errors.client.offline', 'es'));
    setOnline(true);
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
  },
};
