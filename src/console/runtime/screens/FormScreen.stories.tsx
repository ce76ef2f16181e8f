import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { storageKeys } from '../../api/storage.ts';
import { getSession } from '../../api/session.ts';
import { apiError, callsTo, NETWORK_DOWN } from '../../stories/stub-api.ts';
import { notificationList, paymentsSummary, areas, stateUsers, tokenOf, users } from '../../stories/fixtures.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import FormScreen from './FormScreen.tsx';

const meta = {
  title: 'Runtime/FormScreen',
  component: FormScreen,
  args: { screenId: 'signin', menuKey: null },
  parameters: { route: { path: '/signin' } },
} satisfies Meta<typeof FormScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const field = (label: RegExp | string) => screen.getByLabelText(label, { selector: 'input' });
const submit = (name: RegExp | string) => userEvent.click(screen.getByRole('button', { name }));

// ---------------------------------------------------------------- sign-in

export const Signin: Story = {
  play: async () => {
    await expect(await screen.findByRole('heading', { name: 'Iniciar sesión' })).toBeInTheDocument();
    await expect(screen.queryByText('No soy un robot')).not.toBeInTheDocument();
    await submit('Ingresar');
    await waitFor(() => expect(screen.getAllByText('Este campo es obligatorio.')).toHaveLength(2));
  },
};

export const SigninEnglish: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    await userEvent.type(field(/e-?mail/i), 'not-an-email');
    await submit(text('screens.signin.submit', 'en'));
    await expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    await expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
  },
};

export const SigninWrongPassword: Story = {
  parameters: { api: { 'clientAuth.signin': apiError(401, '99996', 'Invalid credentials') } },
  play: async () => {
    await userEvent.type(field(/correo/i), 'analista@demo.colibri.co');
    await userEvent.type(field(/^contraseña/i), 'Wrong#Pass1');
    await submit('Ingresar');
    await expect(await screen.findByText(text('errors.server.invalidCredentials', 'es'))).toBeInTheDocument();
    // A wrong password is not an expired session: nothing is dropped, nobody is redirected.
    await expectLocation('/signin');
    await expect(localStorage.getItem(storageKeys.clientToken)).toBeNull();
  },
};

export const SigninBlockedMessage: Story = {
  parameters: { api: { 'clientAuth.signin': apiError(401, '99948', 'Account blocked. Too many login attempts') } },
  play: async () => {
    await userEvent.type(field(/correo/i), 'analista@demo.colibri.co');
    await userEvent.type(field(/^contraseña/i), 'Wrong#Pass1');
    await submit('Ingresar');
    await expect(await screen.findByText(text('errors.server.userBlocked', 'es'))).toBeInTheDocument();
  },
};

export const SigninNetworkError: Story = {
  parameters: { api: { 'clientAuth.signin': NETWORK_DOWN } },
  play: async () => {
    await userEvent.type(field(/correo/i), 'analista@demo.colibri.co');
    await userEvent.type(field(/^contraseña/i), 'Demo#Pass1');
    await submit('Ingresar');
    await expect(await screen.findByText(text('errors.client.network', 'es'))).toBeInTheDocument();
  },
};

let signinAttempts = 0;
export const SigninRevealsCaptcha: Story = {
  parameters: {
    api: {
      'clientAuth.signin': () => (++signinAttempts === 1 ? apiError(400, '99998', 'Invalid captcha') : { clientToken: tokenOf(users.analista) }),
    },
  },
  beforeEach: () => {
    signinAttempts = 0;
  },
  play: async () => {
    await userEvent.type(field(/correo/i), 'analista@demo.colibri.co');
    await userEvent.type(field(/^contraseña/i), 'Demo#Pass1');
    await submit('Ingresar');
    // The server asks for human verification: the captcha appears with the catalogue text.
    const robot = await screen.findByLabelText('No soy un robot');
    await expect(screen.getByText(text('errors.server.invalidCaptcha', 'es'))).toBeInTheDocument();
    await userEvent.click(robot);
    await submit('Ingresar');
    await expectLocation('/User');
    const second = callsTo('clientAuth.signin')[1];
    await expect(second.body).toEqual({ email: 'analista@demo.colibri.co', password: 'Demo#Pass1', captchaToken: 'sandbox-ok' });
    await expect(getSession()?.idUser).toBe(users.analista.idUser);
  },
};

export const SigninStartsSessionByState: Story = {
  parameters: { api: { 'clientAuth.signin': { clientToken: tokenOf(stateUsers.pending) } } },
  play: async () => {
    await userEvent.type(field(/correo/i), 'pending@demo.colibri.co');
    await userEvent.type(field(/^contraseña/i), 'Demo#Pass1');
    await submit('Ingresar');
    await expectLocation(`/userValidation?email=${encodeURIComponent(stateUsers.pending.email)}`);
    await expect(localStorage.getItem(storageKeys.clientToken)).toBe(tokenOf(stateUsers.pending));
  },
};

// ---------------------------------------------------------------- register

/** The schema form comes with its own chunk (the sign-in page does not carry it): its fields show once it has loaded. */
const formDrawn = () => waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull(), { timeout: 10_000 });

const fillRegister = async (overrides: Record<string, string> = {}) => {
  const v = { name: 'Ana Ruiz', email: 'ana@acme.com.co', phone: '3001234567', company: 'ACME S.A.S.', nit: '900123456-7', password: 'Segura#2025', repeat: 'Segura#2025', ...overrides };
  await userEvent.type(field(/nombre completo/i), v.name);
  await userEvent.type(field(/correo/i), v.email);
  await userEvent.type(field(/teléfono/i), v.phone);
  await userEvent.type(field(/nombre de la empresa/i), v.company);
  await userEvent.type(field(/^nit/i), v.nit);
  await userEvent.type(field(/^contraseña/i), v.password);
  await userEvent.type(field(/repite la contraseña/i), v.repeat);
};

export const Register: Story = {
  args: { screenId: 'register' },
  parameters: { route: { path: '/register' }, api: { 'clientAuth.register': { idUser: 9, state: 'pending', email: 'ana@acme.com.co' } } },
  play: async () => {
    await formDrawn();
    await fillRegister();
    await userEvent.click(screen.getByLabelText(/acepto los términos/i));
    await userEvent.click(screen.getByLabelText('No soy un robot'));
    await submit('Registrarme');
    await expectLocation('/userValidation?email=ana%40acme.com.co');
    const [call] = callsTo('clientAuth.register');
    await expect(call.body).toEqual({ fullName: 'Ana Ruiz', email: 'ana@acme.com.co', phone: '3001234567', companyName: 'ACME S.A.S.', nit: '900123456-7', password: 'Segura#2025', acceptTerms: true, captchaToken: 'sandbox-ok', sendEmail: true });
  },
};

export const RegisterValidation: Story = {
  args: { screenId: 'register' },
  parameters: { route: { path: '/register' } },
  play: async () => {
    await formDrawn();
    await fillRegister({ email: 'ana@gmail.com', phone: '12345', password: 'corta', repeat: 'otra' });
    await submit('Registrarme');
    await expect(await screen.findByText(/Usa tu correo corporativo/)).toBeInTheDocument();
    await expect(screen.getByText(/Escribe un número colombiano de 10 dígitos/)).toBeInTheDocument();
    await expect(screen.getByText(/La contraseña debe tener entre 8 y 256 caracteres/)).toBeInTheDocument();
    await expect(screen.getByText('No coincide con Contraseña.')).toBeInTheDocument();
    await expect(screen.getByText('Debes aceptar los términos y condiciones.')).toBeInTheDocument();
    await expect(screen.getByText('Confirma que no eres un robot.')).toBeInTheDocument();
    await expect(callsTo('clientAuth.register')).toHaveLength(0);
  },
};

export const RegisterValidationEnglish: Story = {
  args: { screenId: 'register' },
  globals: { locale: 'en' },
  parameters: { route: { path: '/register' } },
  play: async () => {
    await formDrawn();
    const f = (key: string) => field(new RegExp(`^${text(`fields.${key}`, 'en')}`, 'i'));
    await userEvent.type(f('email'), 'ana@hotmail.com');
    await userEvent.type(f('password'), 'password');
    await userEvent.type(f('passwordRepeat'), 'different');
    await submit(text('screens.register.submit', 'en'));
    await expect(await screen.findByText(/Use your corporate e-mail/)).toBeInTheDocument();
    await expect(screen.getByText(/The password must be 8 to 256 characters long/)).toBeInTheDocument();
    await expect(screen.getByText(`Does not match ${text('fields.password', 'en')}.`)).toBeInTheDocument();
    await expect(screen.getByText('You must accept the terms and conditions.')).toBeInTheDocument();
  },
};

export const RegisterValidatesOnBlur: Story = {
  args: { screenId: 'register' },
  parameters: { route: { path: '/register' } },
  play: async () => {
    await formDrawn();
    await userEvent.type(field(/correo/i), 'ana@yahoo.com');
    await expect(screen.queryByText(/Usa tu correo corporativo/)).not.toBeInTheDocument();
    await userEvent.tab();
    await expect(await screen.findByText(/Usa tu correo corporativo/)).toBeInTheDocument();
    // Untouched fields stay quiet until submit.
    await expect(screen.queryByText('Este campo es obligatorio.')).not.toBeInTheDocument();
    await userEvent.clear(field(/correo/i));
    await userEvent.type(field(/correo/i), 'ana@acme.co');
    await waitFor(() => expect(screen.queryByText(/Usa tu correo corporativo/)).not.toBeInTheDocument());
  },
};

export const RegisterDomainRejectedByServer: Story = {
  args: { screenId: 'register' },
  parameters: { route: { path: '/register' }, api: { 'clientAuth.register': apiError(400, '99947', 'Domain not allowed') } },
  play: async () => {
    await formDrawn();
    await fillRegister({ email: 'ana@acme-mail.co' });
    await userEvent.click(screen.getByLabelText(/acepto los términos/i));
    await userEvent.click(screen.getByLabelText('No soy un robot'));
    await submit('Registrarme');
    const email = field(/correo/i);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    await expect(screen.getByText(text('errors.server.domainNotAllowed', 'es'))).toBeInTheDocument();
  },
};

export const RegisterUnknownFailure: Story = {
  args: { screenId: 'register' },
  parameters: { route: { path: '/register' }, api: { 'clientAuth.register': apiError(500, 'm1', 'boom') } },
  play: async () => {
    await formDrawn();
    await fillRegister();
    await userEvent.click(screen.getByLabelText(/acepto los términos/i));
    await userEvent.click(screen.getByLabelText('No soy un robot'));
    await submit('Registrarme');
    await expect(await screen.findByText(text('errors.client.registrationFailed', 'es'))).toBeInTheDocument();
  },
};

// ---------------------------------------------------------------- user validation (OTP)

export const UserValidation: Story = {
  args: { screenId: 'userValidation' },
  parameters: {
    route: { path: '/userValidation?email=ana%40acme.com.co' },
    api: { 'clientAuth.saveOtp': { sent: true, method: 'email', to: 'a***@acme.com.co', expiresAt: '2030-01-01T00:00:00Z' }, 'clientAuth.validateOtp': { valid: true, state: 'active' } },
  },
  play: async () => {
    await expect(field(/correo/i)).toHaveValue('ana@acme.com.co');
    await userEvent.click(screen.getByRole('button', { name: 'Reenviar código' }));
    await expect(await screen.findByText(text('screens.userValidation.sent', 'es'))).toBeInTheDocument();
    await expect(callsTo('clientAuth.saveOtp')[0].body).toEqual({ email: 'ana@acme.com.co' });
    await userEvent.type(field(/código/i), '123456');
    await submit('Validar');
    await expectLocation('/signin');
  },
};

export const UserValidationWrongCode: Story = {
  args: { screenId: 'userValidation' },
  parameters: { route: { path: '/userValidation?email=ana%40acme.com.co' }, api: { 'clientAuth.validateOtp': apiError(400, '99941', 'Invalid OTP code') } },
  play: async () => {
    await userEvent.type(field(/código/i), '12');
    await submit('Validar');
    await expect(await screen.findByText('El código tiene 6 dígitos.')).toBeInTheDocument();
    await userEvent.clear(field(/código/i));
    await userEvent.type(field(/código/i), '654321');
    await submit('Validar');
    await expect(await screen.findByText(text('errors.server.invalidOtp', 'es'))).toBeInTheDocument();
    await expectLocation('/userValidation?email=ana%40acme.com.co');
  },
};

export const UserValidationResendNeedsEmail: Story = {
  args: { screenId: 'userValidation' },
  parameters: { route: { path: '/userValidation' } },
  play: async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Reenviar código' }));
    await expect(await screen.findByText('Este campo es obligatorio.')).toBeInTheDocument();
    await expect(callsTo('clientAuth.saveOtp')).toHaveLength(0);
  },
};

// ---------------------------------------------------------------- passwords

export const ResetPassword: Story = {
  args: { screenId: 'resetPassword' },
  parameters: { route: { path: '/resetPassword' }, api: { 'clientAuth.recoverPassword': { sent: true, changed: false } } },
  play: async () => {
    await expect(await screen.findByRole('heading', { name: 'Restablecer contraseña' })).toBeInTheDocument();
    await userEvent.type(field(/correo/i), 'ana@acme.com.co');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
    await expect(await screen.findByText(text('screens.resetPassword.codeSent', 'es'))).toBeInTheDocument();
  },
};

export const ExpiredPasswordForSession: Story = {
  args: { screenId: 'resetPassword' },
  parameters: {
    session: stateUsers.ExpiredPassword,
    route: { path: '/resetPassword' },
    api: { 'clients.patch': { ...stateUsers.ExpiredPassword, id: 23, state: 'active' } },
  },
  play: async () => {
    // A signed-in user who must renew the password gets the change form instead.
    await expect(await screen.findByRole('heading', { name: text('screens.expiredPassword.title', 'es') })).toBeInTheDocument();
    await userEvent.type(field(/contraseña actual/i), 'Vieja#2024');
    await userEvent.type(field(/^contraseña\s*\*?$/i), 'Nueva#2025x');
    await userEvent.type(field(/repite la contraseña/i), 'Nueva#2025x');
    await submit(text('screens.changePassword.submit', 'es'));
    await expectLocation('/User');
    await expect(getSession()?.state).toBe('active');
    const [call] = callsTo('clients.patch');
    await expect(call.params).toEqual({ id: '23' });
    await expect(call.body).toEqual({ currentPassword: 'Vieja#2024', password: 'Nueva#2025x' });
  },
};

export const ChangePassword: Story = {
  args: { screenId: 'changePassword', menuKey: 'security.changePassword' },
  parameters: { session: users.analista, route: { path: '/profile/User/password' }, api: { 'clients.patch': apiError(400, '99935', 'Wrong current password') } },
  play: async () => {
    await userEvent.type(field(/contraseña actual/i), 'Mala#2024');
    await userEvent.type(field(/^contraseña\s*\*?$/i), 'Nueva#2025x');
    await userEvent.type(field(/repite la contraseña/i), 'Nueva#2025x');
    await submit(text('screens.changePassword.submit', 'es'));
    await expect(await screen.findByText(text('errors.server.wrongCurrentPassword', 'es'))).toBeInTheDocument();
    await waitFor(() => expect(field(/contraseña actual/i)).toHaveAttribute('aria-invalid', 'true'));
  },
};

// ---------------------------------------------------------------- own profile

export const Profile: Story = {
  args: { screenId: 'profile', menuKey: 'security.editProfile' },
  parameters: {
    session: users.analista,
    route: { path: '/profile/User/edit' },
    api: {
      'clients.get': { id: 3, fullName: 'Analista Demo', email: 'analista@demo.colibri.co', phone: '3001234567', documentType: 'CC', state: 'active', roles: ['analista'] },
      'clients.getProfilePic': { url: '' },
      'clients.uploadProfilePic': { url: 'https://files.colibri.test/p/3.png' },
      'clients.patch': (req: { body: unknown }) => ({ id: 3, state: 'active', roles: ['analista'], email: 'analista@demo.colibri.co', ...(req.body as object) }),
      'account.list': areas,
      'notifications.list': notificationList(),
      'account.paymentsSummary': paymentsSummary,
    },
  },
  play: async () => {
    await waitFor(() => expect(field(/nombre completo/i)).toHaveValue('Analista Demo'));
    // The picture field loads on demand (the sign-in first load): wait for it.
    await expect(await screen.findByTestId('default-picture')).toBeInTheDocument();
    const file = new File(['png'], 'me.png', { type: 'image/png' });
    await userEvent.upload(await screen.findByLabelText(text('common.picture.choose', 'es')), file);
    await expect(await screen.findByText(text('common.picture.saved', 'es'))).toBeInTheDocument();
    await expect(getSession()?.profilePic).toBe('https://files.colibri.test/p/3.png');
    await userEvent.clear(field(/nombre completo/i));
    await userEvent.type(field(/nombre completo/i), 'Ana Analista');
    await submit(text('common.save', 'es'));
    await waitFor(() => expect(callsTo('clients.patch')).toHaveLength(1));
    await expect((callsTo('clients.patch')[0].body as Record<string, unknown>).fullName).toBe('Ana Analista');
    await expect(callsTo('clients.patch')[0].headers['X-Auth-Token']).toBe(users.analista.token);
  },
};

/** A single form waits for its load: drawn on its defaults, its Save would wipe the settings it replaces whole. */
let releaseSettings: () => void = () => {};
const storedSettings = { allowedIps: ['190.0.0.0/16'], notificationEmail: 'ti@acme.com.co', ftp: { host: 'ftp.acme.com.co', port: 21, user: 'colibri', directory: '/envios', password: '••••••••1234' } };
export const SettingsSaveWaitsForTheirLoad: Story = {
  args: { screenId: 'apiSettings', menuKey: null },
  parameters: {
    session: users.manager,
    route: { path: '/profile/apiPermissions/settings' },
    api: {
      'credentials.getSettings': () => new Promise((resolve) => {
        releaseSettings = () => resolve(storedSettings);
      }),
      'credentials.updateSettings': (req: { body: unknown }) => req.body,
      'account.list': areas,
      'notifications.list': notificationList(),
      'account.paymentsSummary': paymentsSummary,
    },
  },
  play: async () => {
    // While the settings are on their way the form is not drawn: there is no Save to press.
    await expect(await screen.findByRole('progressbar', { name: text('common.loading', 'es') })).toBeInTheDocument();
    await expect(screen.queryByRole('button', { name: text('common.save', 'es') })).toBeNull();
    releaseSettings();
    // Drawn with what was stored, not with the schema's defaults; saved as it is, it keeps it.
    const save = await screen.findByRole('button', { name: text('common.save', 'es') }, { timeout: 10_000 });
    await userEvent.click(save);
    await waitFor(() => expect(callsTo('credentials.updateSettings')).toHaveLength(1));
    await expect(callsTo('credentials.updateSettings')[0].body).toMatchObject({ allowedIps: ['190.0.0.0/16'], notificationEmail: 'ti@acme.com.co', ftp: { host: 'ftp.acme.com.co', port: 21, user: 'colibri', directory: '/envios' } });
  },
};

export const ClientSignin: Story = {
  args: { screenId: 'clientSignin' },
  parameters: { route: { path: '/clientSignin' } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement.ownerDocument.body).getByRole('heading', { name: text('screens.clientSignin.title', 'es') })).toBeInTheDocument();
    await expect(screen.getByRole('link', { name: text('screens.clientSignin.companyAccess', 'es') })).toHaveAttribute('href', '/signin');
  },
};
