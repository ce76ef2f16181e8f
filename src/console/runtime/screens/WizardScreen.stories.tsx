import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { apiError, callsTo, type StubRequest } from '../../stories/stub-api.ts';
import { fxArgs } from '../../stories/screens.ts';
import WizardScreen from './WizardScreen.tsx';

const meta = {
  title: 'Runtime/WizardScreen',
  component: WizardScreen,
  args: fxArgs('fxChannelWizard', 'settings.channels'),
  parameters: {
    session: users.manager,
    route: { path: '/profile/channels/new', pattern: '/profile/channels/new' },
    api: { 'channels.create': (req: StubRequest) => ({ id: 31, ...(req.body as object) }) },
  },
} satisfies Meta<typeof WizardScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const label = (key: string) => new RegExp(`^${text(`fields.${key}`, 'es')}\\s*\\*?$`, 'i');
const input = (key: string) => screen.getByLabelText(label(key), { selector: 'input' });
const choose = async (key: string, option: string) => {
  await userEvent.click(screen.getByRole('combobox', { name: label(key) }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};
const next = () => userEvent.click(screen.getByRole('button', { name: text('common.wizard.next', 'es') }));
const back = () => userEvent.click(screen.getByRole('button', { name: text('common.wizard.back', 'es') }));
const step = (key: string) => screen.findByRole('heading', { level: 2, name: text(key, 'es') });

const firstStep = async () => {
  await userEvent.type(input('name'), 'SMS Bogotá');
  await choose('platform', text('enums.channel-platform.sms', 'es'));
  await choose('type', text('enums.channel-type.MO', 'es'));
};

export const NextValidatesTheStep: Story = {
  play: async () => {
    await step('fields.name');
    await next();
    await expect(await screen.findAllByText(text('validation.required', 'es'))).toHaveLength(3);
    await step('fields.name');
    await firstStep();
    await next();
    await step('fields.sender');
  },
};

export const BackKeepsValues: Story = {
  play: async () => {
    await firstStep();
    await next();
    await step('fields.sender');
    await userEvent.type(input('shortCode'), '89012');
    await back();
    await step('fields.name');
    await expect(input('name')).toHaveValue('SMS Bogotá');
    await next();
    await expect(input('shortCode')).toHaveValue('89012');
  },
};

export const SubmitsEverythingAtTheEnd: Story = {
  play: async () => {
    await firstStep();
    await next();
    await userEvent.type(input('shortCode'), '89012');
    const keywords = await screen.findByRole('combobox', { name: label('keywords') });
    await userEvent.type(keywords, 'PROMO,INFO,');
    await next();
    await step('fields.authorizationToken');
    await userEvent.type(await screen.findByLabelText(label('authorizationToken'), { selector: 'input' }), 'tok-123456789');
    await userEvent.type(input('callbackUrl'), 'ftp://bad');
    await userEvent.click(screen.getByRole('button', { name: text('common.save', 'es') }));
    await expect(await screen.findByText(text('validation.pattern.callbackUrl', 'es'))).toBeInTheDocument();
    await userEvent.clear(input('callbackUrl'));
    await userEvent.type(input('callbackUrl'), 'https://acme.com.co/hooks/sms');
    await userEvent.click(screen.getByRole('button', { name: text('common.save', 'es') }));
    await expectLocation('/profile/channels');
    await expect(callsTo('channels.create')[0].body).toEqual({
      name: 'SMS Bogotá', platform: 'sms', type: 'MO', priority: 5, shortCode: '89012', keywords: ['PROMO', 'INFO'],
      authorizationToken: 'tok-123456789', callbackUrl: 'https://acme.com.co/hooks/sms',
    });
  },
};

export const ServerErrorReturnsToItsStep: Story = {
  parameters: { api: { 'channels.create': apiError(409, '99987', 'Channel name exists') } },
  play: async () => {
    await firstStep();
    await next();
    await next();
    await userEvent.click(await screen.findByRole('button', { name: text('common.save', 'es') }));
    await step('fields.name');
    await expect(await screen.findByText(text('errors.server.channelNameExists', 'es'))).toBeInTheDocument();
    await waitFor(() => expect(input('name')).toHaveAttribute('aria-invalid', 'true'));
  },
};
