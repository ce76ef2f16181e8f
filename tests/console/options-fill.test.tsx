// `x-options.fill` (a picker whose choice copies properties of the chosen row into other fields):
// the pure rule, the cascade that spares what a fill set, and the campaign edit form
// (config/screens/campaign-form.yaml) where choosing a template fills the content the user then
// edits and saves.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../src/console/app/providers.tsx';
import { i18n } from '../../src/console/app/i18n.ts';
import { sessionChanged } from '../../src/console/api/session.ts';
import { storageKeys } from '../../src/console/api/storage.ts';
import { clearDependents } from '../../src/console/runtime/form/SchemaForm.tsx';
import { fillFrom, toOptions } from '../../src/console/runtime/options.ts';
import FormScreen from '../../src/console/runtime/screens/FormScreen.tsx';
import type { ScreenDef } from '../../src/console/runtime/screen-types.ts';
import { listHandler } from '../../src/console/stories/list-stub.ts';
import { users } from '../../src/console/stories/fixtures.ts';
import { StoryRouter } from '../../src/console/stories/StoryRouter.tsx';
import { callsTo, installStubApi, type StubRequest } from '../../src/console/stories/stub-api.ts';
import { encodeSession } from '../../src/core/session-codec.ts';
import { screen as campaignForm } from '../../src/generated/screen.campaignForm.gen.ts';

const es = (key: string, options?: Record<string, unknown>) => i18n.t(key, { lng: 'es', ...options });
const label = (key: string) => new RegExp(`^${es(`fields.${key}`)}\\s*\\*?$`, 'i');
const valueOf = (el: HTMLElement) => (el as HTMLInputElement | HTMLTextAreaElement).value;

describe('fill rule', () => {
  const source = { operation: 'templates.list', fill: { content: 'content', purpose: 'purpose', language: 'language', account: 'channel.name' } };
  it('copies the named properties of the chosen row (dotted paths too), leaving out what the row lacks or holds as null', () => {
    expect(fillFrom(source, { content: 'Hola', purpose: 'otp', language: null, channel: { name: 'SMS' } })).toEqual({ content: 'Hola', purpose: 'otp', account: 'SMS' });
    expect(fillFrom(source, undefined)).toEqual({});
    expect(fillFrom({ operation: 'templates.list' }, { content: 'Hola' })).toEqual({});
  });
  it('options keep their row', () => {
    const [option] = toOptions({ items: [{ id: 1, name: 'a', content: 'Hola' }] }, { operation: 'templates.list', value: 'id', label: 'name' }, String);
    expect(option).toEqual({ value: 1, label: 'a', row: { id: 1, name: 'a', content: 'Hola' } });
  });
  it('the cascade empties what depends on a changed field, but not what a fill just set', () => {
    const schema = { type: 'object', properties: { platform: { type: 'string' }, templateId: { type: 'integer', 'x-options': { operation: 'templates.list', params: { channel: '$f.platform' } } } } } as never;
    expect(clearDependents({ platform: 'sms', templateId: 1 }, { platform: 'whatsapp', templateId: 1 }, schema)).toEqual({ platform: 'whatsapp', templateId: undefined });
    expect(clearDependents({ platform: 'sms', templateId: 1 }, { platform: 'whatsapp', templateId: 4 }, schema, ['templateId'])).toEqual({ platform: 'whatsapp', templateId: 4 });
  });
});

const campaign = {
  id: 7, name: 'Promo junio', kind: 'open', purpose: 'commercial', channelId: 3, channelName: 'SMS demo', platform: 'sms',
  content: 'Texto anterior', variables: [], scheduledAt: null, recurrence: null, label: 'Active', editLock: 'unlockedForEdit',
  maxCompleteInteractions: null, recipients: 0, lastDeploymentId: null, lastDeploymentState: null, createdAt: '2026-06-01T15:00:00Z', updatedAt: '2026-06-01T15:00:00Z',
};
const templates = [
  { id: 1, name: 'recordatorio_pago', channel: 'sms', purpose: 'transactional', status: 'APPROVED', content: 'Hola {{nombre}}, tu pago vence mañana.' },
  { id: 2, name: 'colibri_aviso', channel: 'whatsapp', purpose: 'transactional', status: 'APPROVED', content: 'Hola {{1}}, tienes un aviso.' },
];

describe('the campaign edit form', () => {
  beforeEach(async () => {
    localStorage.clear();
    localStorage.setItem(storageKeys.clientToken, encodeSession(users.manager));
    sessionChanged();
    installStubApi({
      'campaigns.get': campaign,
      'campaigns.update': (req: StubRequest) => ({ ...campaign, ...(req.body as object) }),
      'channels.list': { items: [{ id: 3, name: 'SMS demo', platform: 'sms' }, { id: 4, name: 'WhatsApp demo', platform: 'whatsapp' }], total: 2, page: 1, pageSize: 200 },
      'templates.list': listHandler(() => templates, ['name', 'content']),
    });
    await i18n.changeLanguage('es');
  });

  it('a chosen template of the campaign’s channel type fills the content, which is edited and saved', async () => {
    const user = userEvent.setup();
    render(
      <AppProviders swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <StoryRouter route={{ path: '/Campaigns/campaigns/7/edit', pattern: '/Campaigns/campaigns/:id/edit' }}>
          <FormScreen screenId="campaignForm" menuKey={null} screen={campaignForm as unknown as ScreenDef} />
        </StoryRouter>
      </AppProviders>,
    );
    // The schema form loads with the first form that needs it (not on the sign-in page).
    const content = await screen.findByRole('textbox', { name: label('content') }, { timeout: 15000 });
    await waitFor(() => expect(valueOf(content)).toBe('Texto anterior'));

    // The loaded campaign's channel type (platform) picks the templates offered.
    const picker = await screen.findByRole('combobox', { name: label('templateId') }, { timeout: 15000 });
    await user.click(picker);
    const option = await screen.findByRole('option', { name: 'recordatorio_pago' });
    expect(screen.queryByRole('option', { name: 'colibri_aviso' })).toBeNull();
    await user.click(option);
    expect(callsTo('templates.list').at(-1)!.query).toMatchObject({ channel: 'sms', status: 'APPROVED' });
    await waitFor(() => expect(valueOf(content)).toBe('Hola {{nombre}}, tu pago vence mañana.'));
    expect(valueOf(picker)).toBe('recordatorio_pago');
    expect(screen.getByRole('combobox', { name: label('purpose') }).textContent).toContain(es('enums.message-purpose.transactional'));

    await user.type(content, ' Gracias.');
    await user.click(screen.getByRole('button', { name: es('common.save') }));
    await waitFor(() => expect(callsTo('campaigns.update')).toHaveLength(1));
    // Only what campaigns.update takes: the chosen template (a WhatsApp campaign sends it), no platform.
    const body = callsTo('campaigns.update')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ content: 'Hola {{nombre}}, tu pago vence mañana. Gracias.', purpose: 'transactional', channelId: 3, templateId: 1 });
    expect(body).not.toHaveProperty('platform');
  });
});
