import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { storageKeys } from '../../api/storage.ts';
import { areas, notificationList, paymentsSummary, stateUsers, users } from '../../stories/fixtures.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { callsTo } from '../../stories/stub-api.ts';
import DefaultLayout from './DefaultLayout.tsx';

const api = { 'account.list': areas, 'notifications.list': notificationList(), 'account.paymentsSummary': paymentsSummary, 'clientAuth.signout': { ok: true } };

const meta = {
  title: 'Shell/Layouts',
  component: DefaultLayout,
  args: { menuWidth: 200 },
  parameters: { session: users.manager, api, route: { pattern: '/User' } },
} satisfies Meta<typeof DefaultLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

const drawerWidth = () => getComputedStyle(document.querySelector('.MuiDrawer-paper') as HTMLElement).width;

export const Default: Story = {
  parameters: { route: { app: true, path: '/User' } },
  play: async () => {
    await expect(await screen.findByRole('navigation', { name: 'Menú principal' })).toBeInTheDocument();
    await expect(document.querySelector('[data-layout="default"]')).not.toBeNull();
    await expect(drawerWidth()).toBe('200px');
    await expect(screen.getByTestId('page-title')).toHaveTextContent(text('menu.dashboard', 'es'));
    await waitFor(() => expect(screen.getByTestId('card-screens.home.balance').textContent).toMatch(/125\.000/));
  },
};

export const Second: Story = {
  args: { menuWidth: 170 },
  play: async () => {
    await expect(await screen.findByRole('navigation', { name: 'Menú principal' })).toBeInTheDocument();
    await expect(document.querySelector('[data-layout="second"]')).not.toBeNull();
    await expect(drawerWidth()).toBe('170px');
  },
};

export const MenuToggle: Story = {
  play: async () => {
    const toggle = screen.getByRole('button', { name: 'Mostrar u ocultar el menú' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Menú principal' })).not.toBeInTheDocument());
    await userEvent.click(toggle);
    await expect(await screen.findByRole('navigation', { name: 'Menú principal' })).toBeInTheDocument();
  },
};

export const NarrowCollapsed: Story = {
  args: { narrow: true },
  play: async () => {
    // Below 960 px the menu starts collapsed and the toggle opens it as a drawer.
    const toggle = screen.getByRole('button', { name: 'Mostrar u ocultar el menú' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(screen.queryByRole('navigation', { name: 'Menú principal' })).not.toBeInTheDocument();
    await userEvent.click(toggle);
    const link = await screen.findByRole('link', { name: text('menu.dashboard', 'es') });
    await userEvent.click(link);
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Menú principal' })).not.toBeInTheDocument());
  },
};

export const Reduced: Story = {
  parameters: { session: stateUsers.disabled, route: { app: true, path: '/notActive' }, storage: { [storageKeys.language]: 'es' } },
  play: async () => {
    await expect(await screen.findByText(text('errors.client.accountDisabled', 'es'))).toBeInTheDocument();
    await expect(document.querySelector('[data-layout="reduced"]')).not.toBeNull();
    // Reduced toolbar: language and logout, no menu.
    await expect(screen.queryByRole('navigation', { name: 'Menú principal' })).not.toBeInTheDocument();
    await expect(screen.getByRole('button', { name: /Inglés$/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar sesión' }));
    await expectLocation('/signin');
    await expect(callsTo('clientAuth.signout')).toHaveLength(1);
    await expect(localStorage.getItem(storageKeys.clientToken)).toBeNull();
    await expect(localStorage.getItem(storageKeys.language)).toBe('es');
  },
};

export const PlainWithExpiredSession: Story = {
  parameters: { session: null, route: { app: true, path: '/signin?expired=true' } },
  play: async () => {
    await expect(await screen.findByRole('heading', { name: text('screens.signin.title', 'es') })).toBeInTheDocument();
    await expect(document.querySelector('[data-layout="plain"]')).not.toBeNull();
    await expect(screen.getByRole('alert')).toHaveTextContent(text('errors.client.sessionExpired', 'es'));
  },
};
