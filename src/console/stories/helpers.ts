// Helpers for play functions.
import { expect, screen, waitFor } from 'storybook/test';
import { i18n } from '../app/i18n.ts';

/** The router location the story's probe shows. */
export const currentLocation = () => screen.getByTestId('location').textContent ?? '';

export async function expectLocation(expected: string | RegExp): Promise<void> {
  await waitFor(() => (typeof expected === 'string' ? expect(currentLocation()).toBe(expected) : expect(currentLocation()).toMatch(expected)), { timeout: 5000 });
}

/** The text of a key in a given language (for keys the lead's namespaces own). */
export const text = (key: string, lng: string = i18n.language, options?: Record<string, unknown>) => i18n.t(key, { lng, ...options });
