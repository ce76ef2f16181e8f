// A flow's training file (config/screens/flow-training.yaml) over a stubbed API: the file goes up
// from the list's action to the flow's own operation (200 MB, not the recipients' 20 MB), the
// answer's counts show with the refused rows in a table — row, value, reason in words, never the
// reason's code — and the phrases are read again.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, within } from 'storybook/test';
import { users } from '../../stories/fixtures.ts';
import { screenArgs } from '../../stories/product-screens.ts';
import { text } from '../../stories/helpers.ts';
import { callsTo } from '../../stories/stub-api.ts';
import { listHandler } from '../../stories/list-stub.ts';
import { uploadRules, uploadSpec } from '../form/upload.ts';
import ListScreen from './ListScreen.tsx';

const es = (key: string, options?: Record<string, unknown>) => text(key, 'es', options);
let uploaded = false;

const meta = {
  title: 'Runtime/Flow training',
  component: ListScreen,
  args: screenArgs('flowTraining', 'chatbot.flowTraining'),
  parameters: {
    session: users.manager,
    route: { path: '/Agents/ManagerChatbot/training/12', pattern: '/Agents/ManagerChatbot/training/:id' },
    api: {
      'flows.training': listHandler(() => (uploaded ? [{ row: 2, phrase: 'Me gustaría cancelar la deuda', meaning: 'Pagar' }] : []), ['phrase']),
      'flows.uploadTraining': () => {
        uploaded = true;
        return {
          fileName: 'entrenamiento.csv', rows: 3, phrases: 1, rejectedTotal: 2,
          rejected: [{ position: 3, value: '', reason: 'emptyPhrase' }, { position: 4, value: 'hola', reason: 'unknownMeaning' }],
        };
      },
    },
  },
} satisfies Meta<typeof ListScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const UploadTrainingFile: Story = {
  play: async () => {
    uploaded = false;
    await screen.findByText(es('screens.flowTraining.empty'));
    await userEvent.click(await screen.findByRole('button', { name: es('screens.flowTraining.upload') }));
    const input = screen.getByTestId('action-file') as HTMLInputElement;
    await expect(input.accept).toBe('.csv,.xls,.xlsx');
    // The flow's own limit, 200 MB, is the one the action checks before sending.
    await expect(uploadRules(uploadSpec({ 'x-upload': { maxBytes: 'flowTrainingFileBytes' } }, false)).mb).toBe(200);
    await userEvent.upload(input, new File(['frase;respuesta\nMe gustaría cancelar la deuda;Pagar\n;Pagar\nhola;Reembolso\n'], 'entrenamiento.csv', { type: 'text/csv' }));
    const box = await screen.findByTestId('action-result');
    await expect(callsTo('flows.uploadTraining')[0].params).toEqual({ id: '12' });
    await expect(box.querySelector('dd[data-field="phrases"]')).toHaveTextContent('1');
    await expect(box.querySelector('dd[data-field="rejectedTotal"]')).toHaveTextContent('2');
    const refused = within(box).getByTestId('upload-rejections');
    await expect(within(refused).getByText(es('enums.training-rejection.unknownMeaning'))).toBeInTheDocument();
    await expect(within(refused).getByText(es('enums.training-rejection.emptyPhrase'))).toBeInTheDocument();
    await expect(within(refused).queryByText('unknownMeaning')).not.toBeInTheDocument();
    // The phrases are read again.
    await screen.findByText('Me gustaría cancelar la deuda');
  },
};
