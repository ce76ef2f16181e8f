import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { menuNodes } from '../../generated/menu.gen.ts';
import { storageKeys } from '../api/storage.ts';
import { areas, makeUser, notificationList, users } from '../stories/fixtures.ts';
import { expectLocation, text } from '../stories/helpers.ts';
import { callsTo } from '../stories/stub-api.ts';
import { Header } from './Header.tsx';

const node = (key: string) => menuNodes.find((n) => n.key === key)!;

const meta = {
  title: 'Shell/Header',
  component: Header,
  args: { user: users.manager, node: node('campaigns.deploy'), menuOpen: true, onToggleMenu: () => {}, offset: 0 },
  parameters: {
    session: users.manager,
    route: { path: '/Campaigns/campaigns' },
    api: { 'account.list': areas, 'notifications.list': notificationList(), 'clientAuth.signout': { ok: true } },
  },
} satisfies Meta<typeof Header>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TitleAndSubtabs: Story = {
  play: async () => {
    await expect(screen.getByTestId('page-title')).toHaveTextContent(text('menu.campaigns.deploy', 'es'));
    const tabs = screen.getByRole('tablist');
    await expect(within(tabs).getByRole('tab', { name: text('menu.campaigns.open', 'es') })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(within(tabs).getByRole('tab', { name: text('menu.campaigns.scheduled', 'es') }));
    await expectLocation('/Campaigns/campaigns?tab=campaigns.scheduled');
  },
};

export const AreaIsRemembered: Story = {
  play: async () => {
    const area = await screen.findByRole('combobox', { name: 'Área' });
    await waitFor(() => expect(area).toHaveTextContent('Bogotá'));
    await expect(localStorage.getItem(storageKeys.area)).toBe('1');
    await userEvent.click(area);
    await userEvent.click(await screen.findByRole('option', { name: 'Medellín' }));
    await expect(localStorage.getItem(storageKeys.area)).toBe('2');
  },
};

export const SavedAreaIsRestored: Story = {
  parameters: { storage: { [storageKeys.area]: '2' } },
  play: async () => {
    const area = await screen.findByRole('combobox', { name: 'Área' });
    await waitFor(() => expect(area).toHaveTextContent('Medellín'));
  },
};

export const Responsible: Story = {
  play: async () => {
    const responsible = screen.getByRole('combobox', { name: 'Responsable' });
    await expect(responsible).toHaveTextContent('Laura Gómez');
    await userEvent.click(responsible);
    await userEvent.click(await screen.findByRole('option', { name: 'Andrés Pérez' }));
    await expect(localStorage.getItem(storageKeys.responsible)).toBe('1:12');
  },
};

export const ProfileSpeedDial: Story = {
  play: async () => {
    await userEvent.click(screen.getByRole('button', { name: /Menú de perfil$/ }));
    await expect(await screen.findByRole('menuitem', { name: 'Editar perfil' })).toBeInTheDocument();
    await expect(screen.getByRole('menuitem', { name: 'Cambiar contraseña' })).toBeInTheDocument();
    await expect(screen.getByRole('menuitem', { name: 'Ir al tablero' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Cambiar contraseña' }));
    await expectLocation('/profile/User/password');
  },
};

export const LogoutKeepsOnlyTheLanguage: Story = {
  parameters: { storage: { [storageKeys.language]: 'es', [storageKeys.area]: '1', other: 'x' } },
  play: async () => {
    await userEvent.click(screen.getByRole('button', { name: /Menú de perfil$/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Cerrar sesión' }));
    await expectLocation('/signin');
    await expect(callsTo('clientAuth.signout')).toHaveLength(1);
    await expect(callsTo('clientAuth.signout')[0].headers['X-Auth-Token']).toBe(users.manager.token);
    await expect(Object.keys({ ...localStorage })).toEqual([storageKeys.language]);
  },
};

export const English: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await expect(screen.getByTestId('page-title')).toHaveTextContent(text('menu.campaigns.deploy', 'en'));
    await expect(screen.getByRole('button', { name: 'Show or hide the menu' })).toBeInTheDocument();
  },
};

/** The session's clients name each responsible's client when the user works for several (spec's session `clients`). */
const twoClients = makeUser(['manager'], {
  idUser: 40,
  associations: [
    { platformClientId: 1, platformResponsibleId: 11, name: 'Laura Gómez' },
    { platformClientId: 2, platformResponsibleId: 21, name: 'Andrés Pérez' },
  ],
  clients: [{ id: 1, name: 'Demo S.A.S.', nit: '900123456-7' }, { id: 2, name: 'Demo Retail', nit: '900765432-1' }],
});

export const ResponsiblesNamedWithTheirClient: Story = {
  args: { user: twoClients },
  parameters: { session: twoClients },
  play: async () => {
    await userEvent.click(await screen.findByRole('combobox', { name: text('shell.responsible', 'es') }));
    const options = await screen.findAllByRole('option');
    await expect(options.map((o) => o.textContent)).toEqual(['Demo S.A.S. · Laura Gómez', 'Demo Retail · Andrés Pérez']);
  },
};

export const OneClientNamesOnlyTheResponsible: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('combobox', { name: text('shell.responsible', 'es') }));
    const options = await screen.findAllByRole('option');
    await expect(options.map((o) => o.textContent)).toEqual(['Laura Gómez', 'Andrés Pérez']);
  },
};
