// The help form (config/screens/help-request.yaml) over a stubbed API: the attachment goes up when
// it is chosen and the request names it by its id; a file of a kind the catalogue does not allow
// is refused in the browser, before a byte is sent; the help page links to the form.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { expectLocation, text } from '../../stories/helpers.ts';
import { callsTo, type StubRequest } from '../../stories/stub-api.ts';
import FormScreen from './FormScreen.tsx';
import MessageScreen from './MessageScreen.tsx';

const es = (key: string) => text(key, 'es');
const ATTACHMENT = 'a'.repeat(32);

const meta = {
  title: 'Runtime/Help request',
  component: FormScreen,
  args: { screenId: 'helpRequest', menuKey: 'helpRequest' },
  parameters: {
    session: users.analista,
    route: { path: '/help/request', pattern: '/help/request' },
    api: {
      'help.uploadAttachment': { id: ATTACHMENT, name: 'factura.pdf', size: 4, contentType: 'application/pdf' },
      'help.createRequest': (req: StubRequest) => ({ id: 5, companyId: 1, companyName: 'Demo S.A.S.', userName: 'Analista Demo', email: 'analista@demo.colibri.co', attachmentName: 'factura.pdf', attachmentSize: 4, createdAt: '2026-06-01T15:00:00Z', ...(req.body as object) }),
    },
  },
} satisfies Meta<typeof FormScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const field = (key: string, selector = 'input, textarea') => screen.findByLabelText(new RegExp(`^${es(`fields.${key}`).replace(/[()]/g, '\\$&')}`), { selector });

export const AttachmentGoesUpAndTheRequestNamesIt: Story = {
  play: async () => {
    await userEvent.type(await field('subject', 'input'), 'No veo la factura');
    await userEvent.type(await field('message', 'textarea'), 'Adjunto la factura de junio.');
    await userEvent.upload(await field('attachmentId', 'input[type=file]'), new File(['%PDF'], 'factura.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(callsTo('help.uploadAttachment')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: es('screens.helpRequest.submit') }));
    await expectLocation('/help/requests');
    await expect(callsTo('help.createRequest')[0].body).toEqual({ subject: 'No veo la factura', message: 'Adjunto la factura de junio.', attachmentId: ATTACHMENT });
  },
};

export const AKindNotAllowedIsRefusedBeforeItIsSent: Story = {
  play: async () => {
    await userEvent.upload(await field('attachmentId', 'input[type=file]'), new File(['MZ'], 'programa.exe', { type: 'application/octet-stream' }), { applyAccept: false });
    // The catalogue's kinds, named in the refusal under the field.
    await screen.findByText((t) => t.includes('Tipos permitidos:') && t.includes('PPTX'));
    await expect(callsTo('help.uploadAttachment')).toHaveLength(0);
  },
};

export const HelpPageLinksToTheForm: Story = {
  render: () => <MessageScreen screenId="help" menuKey="help" />,
  parameters: { route: { path: '/help', pattern: '/help' } },
  play: async () => {
    await userEvent.click(await screen.findByRole('link', { name: es('screens.helpRequest.title') }));
    await expectLocation('/help/request');
  },
};
