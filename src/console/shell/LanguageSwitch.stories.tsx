import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { storageKeys } from '../api/storage.ts';
import { createI18n, i18n } from '../app/i18n.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';

const meta = {
  title: 'Shell/LanguageSwitch',
  component: LanguageSwitch,
  args: { color: '#1F1300' },
  parameters: { layout: 'centered' },
} satisfies Meta<typeof LanguageSwitch>;
export default meta;
type Story = StoryObj<typeof meta>;

export const SpanishByDefault: Story = {
  play: async () => {
    await expect(screen.getByRole('button', { name: /Español$/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(document.documentElement.lang).toBe('es');
  },
};

export const SwitchToEnglishIsSaved: Story = {
  play: async () => {
    await userEvent.click(screen.getByRole('button', { name: /Inglés$/ }));
    await waitFor(() => expect(i18n.language).toBe('en'));
    await expect(screen.getByRole('button', { name: /English$/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(localStorage.getItem(storageKeys.language)).toBe('en');
    await expect(document.documentElement.lang).toBe('en');
    // A reload builds i18n again from storage: English is restored.
    await expect(createI18n().language).toBe('en');
    await userEvent.click(screen.getByRole('button', { name: /Spanish$/ }));
    await waitFor(() => expect(i18n.language).toBe('es'));
    await expect(localStorage.getItem(storageKeys.language)).toBe('es');
  },
};
