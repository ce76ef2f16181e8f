import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, within } from 'storybook/test';
import { makeUser, users } from '../stories/fixtures.ts';
import { text } from '../stories/helpers.ts';
import { SideMenu } from './SideMenu.tsx';

const meta = {
  title: 'Shell/SideMenu',
  component: SideMenu,
  args: { user: users.analista, width: 200, variant: 'permanent', open: true, onClose: () => {} },
  parameters: { route: { path: '/User' } },
} satisfies Meta<typeof SideMenu>;
export default meta;
type Story = StoryObj<typeof meta>;

const menu = () => within(screen.getByRole('navigation', { name: 'Menú principal' }));
const openGroup = async (key: string) => userEvent.click(menu().getByRole('button', { name: text(key, 'es') }));
const entry = (key: string) => menu().queryByRole('link', { name: text(key, 'es') });

export const Analista: Story = {
  play: async () => {
    await expect(entry('menu.dashboard')).toHaveAttribute('href', '/User');
    await openGroup('menu.settings');
    await expect(entry('menu.settings.channels')).toBeInTheDocument();
    await expect(entry('menu.settings.company')).toBeInTheDocument();
    // Settings that need a manager are not drawn for an analista.
    await expect(entry('menu.settings.areas')).not.toBeInTheDocument();
    await expect(entry('menu.settings.users')).not.toBeInTheDocument();
    await expect(entry('menu.settings.blockList')).not.toBeInTheDocument();
    await expect(menu().queryByRole('button', { name: text('menu.payments', 'es') })).not.toBeInTheDocument();
    // Hidden nodes (own profile, notifications) are routable but never drawn.
    await expect(menu().queryByText(text('menu.security', 'es'))).not.toBeInTheDocument();
    await expect(menu().queryByText(text('menu.notifications', 'es'))).not.toBeInTheDocument();
  },
};

export const Manager: Story = {
  args: { user: users.manager },
  play: async () => {
    await openGroup('menu.settings');
    // Business units: a group of the areas and the cost centers.
    await openGroup('menu.settings.areas');
    await expect(entry('menu.settings.areaList')).toHaveAttribute('href', '/profile/account/areas');
    await expect(entry('menu.settings.costCenters')).toHaveAttribute('href', '/profile/account/costCenters');
    await expect(entry('menu.settings.users')).toBeInTheDocument();
    await expect(entry('menu.settings.blockList')).toBeInTheDocument();
    await openGroup('menu.payments');
    await expect(entry('menu.payments.general')).toBeInTheDocument();
    await expect(entry('menu.payments.history')).toBeInTheDocument();
    // develop/admin only
    await expect(entry('menu.settings.quota')).not.toBeInTheDocument();
  },
};

export const Superadmin: Story = {
  args: { user: users.superadmin },
  play: async () => {
    await openGroup('menu.reports');
    await expect(entry('menu.reports.general')).toBeInTheDocument();
    // Nodes flagged develop, platform or {product}Sms need that flag, even for a superadmin.
    await expect(entry('menu.reports.campaign')).not.toBeInTheDocument();
    await expect(entry('menu.reports.callCenter')).not.toBeInTheDocument();
    await expect(menu().queryByRole('button', { name: text('menu.shortener', 'es') })).not.toBeInTheDocument();
  },
};

export const SubscriptionPlan: Story = {
  args: { user: makeUser(['manager'], { company: { id: 1, name: 'Demo S.A.S.', state: 'active', planType: 'subscription' } }) },
  play: async () => {
    // A subscription plan does not buy credits: its quota shows as promotional credits.
    await openGroup('menu.payments');
    await expect(entry('menu.payments.promotions')).toBeInTheDocument();
    await expect(entry('menu.payments.general')).not.toBeInTheDocument();
    await expect(entry('menu.payments.history')).not.toBeInTheDocument();
  },
};

export const Second: Story = {
  args: { user: users.manager, width: 170 },
  play: async ({ canvasElement }) => {
    const paper = canvasElement.ownerDocument.querySelector('.MuiDrawer-paper') as HTMLElement;
    await expect(getComputedStyle(paper).width).toBe('170px');
  },
};
