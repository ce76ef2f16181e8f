// The access rules of spec 2 and the 401 rule of spec 8, on the real route table, guards and
// layouts (only the API is stubbed).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import type { SessionUser } from '../../generated/types.gen.ts';
import { storageKeys } from '../api/storage.ts';
import { areas, notificationList, paymentsSummary, stateUsers, tokenOf, users } from '../stories/fixtures.ts';
import { expectLocation, text } from '../stories/helpers.ts';
import { apiError, callsTo } from '../stories/stub-api.ts';
import { teamMember } from '../stories/data.ts';

const api = { 'account.list': areas, 'notifications.list': notificationList(), 'account.paymentsSummary': paymentsSummary, 'clientAuth.signout': { ok: true } };

const meta = {
  title: 'App/Access rules',
  render: () => <></>,
  parameters: { route: { app: true, path: '/User' }, api },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (path: string, session: SessionUser | null, extra: Record<string, unknown> = {}) => ({ parameters: { route: { app: true, path }, session, ...extra } });

// -------------------------------------------------------------- no session

export const NoSessionGoesToSignin: Story = {
  ...at('/Campaigns/Templates', null),
  play: async () => {
    await expectLocation('/signin');
    await expect(await screen.findByRole('heading', { name: text('screens.signin.title', 'es') })).toBeInTheDocument();
  },
};

export const RootWithoutSession: Story = {
  ...at('/', null),
  play: async () => expectLocation('/signin'),
};

export const RootWithSession: Story = {
  ...at('/', users.manager),
  play: async () => expectLocation('/User'),
};

export const PublicRouteWithoutSession: Story = {
  ...at('/register', null),
  play: async () => {
    await expect(await screen.findByRole('heading', { name: text('screens.register.title', 'es') })).toBeInTheDocument();
    await expectLocation('/register');
  },
};

// -------------------------------------------------------------- redirects by state

const redirect = (user: SessionUser, to: string, check: () => Promise<unknown>): Story => ({
  ...at('/User', user),
  play: async () => {
    await expectLocation(to);
    await check();
  },
});

export const PendingGoesToUserValidation = redirect(stateUsers.pending, `/userValidation?email=${encodeURIComponent(stateUsers.pending.email)}`, () => screen.findByRole('heading', { name: text('screens.userValidation.title', 'es') }));
export const UserInValidationGoesToValidation = redirect(stateUsers.validation, '/validation', () => screen.findByText(text('errors.client.accountVerifying', 'es')));
export const CompanyInValidationGoesToValidation = redirect(stateUsers.companyValidation, '/validation', () => screen.findByText(text('errors.client.accountVerifying', 'es')));
export const NoCompanyGoesToValidation = redirect(stateUsers.noCompany, '/validation', () => screen.findByText(text('errors.client.accountVerifying', 'es')));
// A new member choosing their first password is not told it expired; one whose password ran out reads the spec's words.
export const NeedsNewPasswordGoesToResetPassword = redirect(stateUsers.needsNewPassword, '/resetPassword', async () => {
  await screen.findByRole('heading', { name: text('screens.expiredPassword.title', 'es') });
  await expect(screen.queryByText(text('errors.client.expiredPassword', 'es'))).not.toBeInTheDocument();
});
export const ExpiredPasswordGoesToResetPassword = redirect(stateUsers.ExpiredPassword, '/resetPassword', async () => {
  await screen.findByRole('heading', { name: text('screens.expiredPassword.title', 'es') });
  await expect(screen.getByText(text('errors.client.expiredPassword', 'es'))).toBeInTheDocument();
});
export const DisabledUserGoesToNotActive = redirect(stateUsers.disabled, '/notActive', () => screen.findByText(text('errors.client.accountDisabled', 'es')));
export const DisabledCompanyGoesToNotActive = redirect(stateUsers.companyDisabled, '/notActive', () => screen.findByText(text('errors.client.accountDisabled', 'es')));

export const ActiveUserLeavesTheReducedScreen: Story = {
  ...at('/notActive', users.analista),
  play: async () => expectLocation('/User'),
};

export const DisabledUserStaysOnNotActive: Story = {
  ...at('/notActive', stateUsers.disabled),
  play: async () => {
    await expect(await screen.findByText(text('errors.client.accountDisabled', 'es'))).toBeInTheDocument();
    await expectLocation('/notActive');
  },
};

// -------------------------------------------------------------- permissions

export const AnalistaCannotOpenManagerSettings: Story = {
  ...at('/profile/account', users.analista),
  play: async () => expectLocation('/User'),
};

// The spec's management ActionsMenu: one member's every action, reached by the member's id.
export const RouteWithIdParameter: Story = {
  ...at('/profile/management/ActionsMenu/42', users.manager, { api: { ...api, 'team.get': { ...teamMember(41), name: 'Ana Gómez' } } }),
  play: async () => {
    await expect(await screen.findByRole('heading', { level: 1, name: text('menu.settings.actionsMenu', 'es') })).toBeInTheDocument();
    await screen.findByText('Ana Gómez');
    await expect(callsTo('team.get')[0].params).toMatchObject({ id: '42' });
    for (const label of ['screens.teamActions.view', 'enums.action.edit', 'menu.settings.associationsAdd', 'screens.team.clearAssociations', 'enums.action.delete']) {
      await expect(screen.getAllByText(text(label, 'es')).length).toBeGreaterThan(0);
    }
    await userEvent.click(screen.getByText(text('menu.settings.associationsAdd', 'es')));
    await expectLocation('/profile/management/AssociationsAddForm/42');
  },
};

export const RequestHeaders: Story = {
  ...at('/User', users.manager),
  play: async () => {
    await waitFor(() => expect(callsTo('account.paymentsSummary')).toHaveLength(1));
    const { headers } = callsTo('account.paymentsSummary')[0];
    await expect(headers['X-Auth-Token']).toBe(users.manager.token);
    await expect(headers.Authorization).toBe(`Bearer ${users.manager.token}`);
    await expect(headers['X-Component-Id']).toBe('10');
    await expect(headers['X-Component-Name']).toBe('dashboard');
    await expect(headers['X-Component-Action']).toBe('view');
  },
};

// -------------------------------------------------------------- the 401 rule

export const ExpiredTokenGoesToSignin: Story = {
  ...at('/User', users.manager, {
    api: { ...api, 'account.paymentsSummary': apiError(401, '99953', 'Unauthorized') },
    storage: { [storageKeys.area]: '1', [storageKeys.language]: 'es' },
  }),
  play: async () => {
    await expectLocation('/signin?expired=true');
    await expect(await screen.findByText(text('errors.client.sessionExpired', 'es'))).toBeInTheDocument();
    await expect(localStorage.getItem(storageKeys.clientToken)).toBeNull();
    await expect(localStorage.getItem(storageKeys.area)).toBeNull();
    await expect(localStorage.getItem(storageKeys.language)).toBe('es');
  },
};

export const ExpiredTokenEnglish: Story = {
  ...ExpiredTokenGoesToSignin,
  globals: { locale: 'en' },
  play: async () => {
    await expectLocation('/signin?expired=true');
    await expect(await screen.findByText(text('errors.client.sessionExpired', 'en'))).toBeInTheDocument();
  },
};

export const LocallyExpiredSession: Story = {
  ...at('/User', { ...users.manager, expiresAt: '2000-01-01T00:00:00Z' }),
  play: async () => {
    await expectLocation('/signin?expired=true');
    await expect(localStorage.getItem(storageKeys.clientToken)).toBeNull();
  },
};

// -------------------------------------------------------------- whole flows

export const SigninThenMenuThenLogout: Story = {
  ...at('/signin', null, { api: { ...api, 'clientAuth.signin': { clientToken: tokenOf(users.analista) } } }),
  play: async () => {
    await userEvent.type(await screen.findByLabelText(/correo/i, { selector: 'input' }), 'analista@demo.colibri.co');
    await userEvent.type(screen.getByLabelText(/^contraseña/i, { selector: 'input' }), 'Demo#Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Ingresar' }));
    await expectLocation('/User');
    await expect(await screen.findByRole('navigation', { name: 'Menú principal' })).toBeInTheDocument();
    await expect(localStorage.getItem(storageKeys.clientToken)).toBe(tokenOf(users.analista));
    await userEvent.click(screen.getByRole('button', { name: /Menú de perfil$/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Cerrar sesión' }));
    await expectLocation('/signin');
    await expect(localStorage.getItem(storageKeys.clientToken)).toBeNull();
  },
};

export const NotificationsPage: Story = {
  ...at('/Notifications', users.analista, { api: { ...api, 'notifications.markRead': { unread: 1 } } }),
  play: async () => {
    await expect(await screen.findByRole('table')).toBeInTheDocument();
    await expect(screen.getByTestId('page-title')).toHaveTextContent(text('menu.notifications', 'es'));
  },
};
