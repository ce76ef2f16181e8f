// Pictures in forms whose operation does not take them (an area's picture, the company's logo):
// the body carries only what the operation takes (its schema refuses anything else, 99931), and
// the chosen file goes through its own upload operation once the record is saved.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { apiError, callsTo, type StubRequest } from '../../stories/stub-api.ts';
import FormScreen from './FormScreen.tsx';

/** A body with a property the operation does not declare is refused, as the server does. */
const strict = (allowed: string[], answer: (body: Record<string, unknown>) => unknown) => (req: StubRequest) => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  return extra.length ? apiError(400, '99931', 'Invalid field', extra.map((field) => ({ field, code: '99931', message: 'not allowed' }))) : answer(body);
};

const company = { id: 1, name: 'Demo S.A.S.', nit: '900123456-8', state: 'active', planType: 'pilot', phone: '3001234567', address: 'Calle 1', countryCode: 'CO', regionCode: '11', cityCode: '11001', logoUrl: '/files/old-logo.png' };

const meta = {
  title: 'Runtime/FormScreen (uploads after save)',
  component: FormScreen,
  args: { screenId: 'areaForm', menuKey: 'settings.areaList' },
  parameters: {
    session: users.manager,
    route: { path: '/profile/account/areas/new', pattern: '/profile/account/areas/new' },
    api: {
      'account.create': strict(['name'], (b) => ({ id: 31, name: b.name })),
      'account.update': strict(['name'], (b) => ({ id: 12, name: b.name })),
      'account.uploadPicture': { url: '/files/area-31.png' },
      'company.get': company,
      'company.patch': strict(['name', 'nit', 'phone', 'address', 'countryCode', 'regionCode', 'cityCode'], (b) => ({ ...company, ...b })),
      'company.uploadLogo': { url: '/files/logo-2.png' },
      'geography.countries': [{ code: 'CO', name: 'Colombia' }],
      'geography.regions': [{ code: '11', name: 'Bogotá D.C.' }],
      'geography.cities': [{ code: '11001', name: 'Bogotá' }],
    },
  },
} satisfies Meta<typeof FormScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const png = (name = 'sede.png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const pictureInput = (key: string) => screen.getByLabelText(new RegExp(`^${text(`fields.${key}`, 'es')}`), { selector: 'input[type=file]' });
const save = () => userEvent.click(screen.getByRole('button', { name: text('common.save', 'es') }));

export const AreaPictureAfterCreate: Story = {
  play: async () => {
    await userEvent.type(await screen.findByLabelText(new RegExp(`^${text('fields.name', 'es')}`), { selector: 'input' }), 'Sede Norte');
    await userEvent.upload(pictureInput('urlPicture'), png());
    // Chosen, not sent: nothing is uploaded before the area exists.
    await expect(screen.getByText('sede.png')).toBeInTheDocument();
    await expect(callsTo('account.uploadPicture')).toHaveLength(0);
    await save();
    await expectLocation('/profile/account/areas');
    await expect(callsTo('account.create')[0].body).toEqual({ name: 'Sede Norte' });
    const [upload] = callsTo('account.uploadPicture');
    await expect(upload.query).toEqual({ id: '31' });
    await expect((upload.body as FormData).get('file')).toBeInstanceOf(File);
  },
};

export const AreaRenameKeepsPictureOutOfTheBody: Story = {
  args: { screenId: 'areaRename' },
  parameters: { route: { path: '/profile/account/areas/12/rename?name=Sede%20Sur&picture=%2Ffiles%2Fold.png', pattern: '/profile/account/areas/:id/rename' } },
  play: async () => {
    const name = await screen.findByLabelText(new RegExp(`^${text('fields.name', 'es')}`), { selector: 'input' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Sede Sur 2');
    await save();
    await expectLocation('/profile/account/areas');
    // The stored picture's address came in the link: it is shown, never sent back.
    await expect(callsTo('account.update')[0].body).toEqual({ name: 'Sede Sur 2' });
    await expect(callsTo('account.uploadPicture')).toHaveLength(0);
  },
};

export const CompanyLogoOnly: Story = {
  args: { screenId: 'companyForm', menuKey: 'settings.company' },
  parameters: { route: { path: '/profile/company', pattern: '/profile/company' } },
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: text('common.edit', 'es') }));
    await userEvent.upload(pictureInput('logoUrl'), png('logo.png'));
    await save();
    // Only the logo changed: no PATCH (it needs at least one property), the logo goes on its own.
    await waitFor(() => expect(callsTo('company.uploadLogo')).toHaveLength(1));
    await expect(callsTo('company.patch')).toHaveLength(0);
    await waitFor(() => expect(screen.getByTestId('form-mode')).toHaveAttribute('data-mode', 'view'));
  },
};

export const CompanyDataAndLogo: Story = {
  args: { screenId: 'companyForm', menuKey: 'settings.company' },
  parameters: { route: { path: '/profile/company', pattern: '/profile/company' } },
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: text('common.edit', 'es') }));
    const address = screen.getByLabelText(new RegExp(`^${text('fields.address', 'es')}`), { selector: 'input' });
    await userEvent.clear(address);
    await userEvent.type(address, 'Carrera 7 # 71-21');
    await userEvent.upload(pictureInput('logoUrl'), png('logo.png'));
    await save();
    await waitFor(() => expect(callsTo('company.uploadLogo')).toHaveLength(1));
    await expect(callsTo('company.patch')[0].body).toEqual({ address: 'Carrera 7 # 71-21' });
    await expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
};
