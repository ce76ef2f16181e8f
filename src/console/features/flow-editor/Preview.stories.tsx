// The editor's preview as a fixture: it runs the draft with the same pure runtime as
// the server (src/core/flows/runtime.ts) — a matching answer goes down its output, a word it does
// not know is asked again, "no reply" spends the retry and then leaves by the timeout, and an
// answer the training file knows goes where the file says it means.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { answerEdges } from '../../../core/flows/build.ts';
import type { FlowDefinition } from '../../../generated/types.gen.ts';
import { i18n } from '../../app/i18n.ts';
import { loadFeatureStrings } from '../strings.ts';
import { Preview } from './Preview.tsx';

const flow: FlowDefinition = {
  steps: [
    { id: 'start', type: 'initialCall', position: { x: 0, y: 0 }, settings: { text: 'Hola, soy el asistente.' } },
    {
      id: 'ask', type: 'send', position: { x: 0, y: 100 },
      settings: {
        text: '¿Qué necesitas? 1 Saldo 2 Asesor', obligatoryMatch: true, noMatch: 'retry', nonMatchMessage: 'No entendí.', maxRetries: 1, waitMinutes: 5,
        responses: [{ id: 'r1', label: 'Saldo', keywords: ['saldo'] }, { id: 'r2', label: 'Asesor', keywords: ['asesor'] }],
      },
    },
    { id: 'balance', type: 'end', position: { x: 0, y: 200 }, settings: { text: 'Tu saldo es $ 50.000.' } },
    { id: 'advisor', type: 'end', position: { x: 200, y: 200 }, settings: { text: 'Un asesor te escribirá.' } },
    { id: 'bye', type: 'end', position: { x: 400, y: 200 }, settings: { text: 'Hasta pronto.' } },
  ],
  edges: [
    { from: 'start', output: 'next', to: 'ask' },
    ...answerEdges('ask', { r1: 'balance', r2: 'advisor' }, 'bye'),
  ],
};

const meta = {
  title: 'Features/Flow editor/Preview',
  component: Preview,
  args: { flow },
  loaders: [async () => { await loadFeatureStrings(i18n, 'flowEditor'); return {}; }],
} satisfies Meta<typeof Preview>;
export default meta;
type Story = StoryObj<typeof meta>;

const log = () => within(screen.getByRole('log'));

export const AnswerGoesDownItsOutput: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: 'Iniciar conversación' }));
    await expect(log().getByText('Hola, soy el asistente.')).toBeInTheDocument();
    await expect(log().getByText('¿Qué necesitas? 1 Saldo 2 Asesor')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Tu respuesta'), 'quiero ver mi saldo');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(log().getByText('Tu saldo es $ 50.000.')).toBeInTheDocument());
    await expect(screen.getByText('La conversación terminó.')).toBeInTheDocument();
  },
};

export const NoReplyRetriesThenTimesOut: Story = {
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: 'Iniciar conversación' }));
    await userEvent.click(screen.getByRole('button', { name: 'Simular que no responde' }));
    await waitFor(() => expect(log().getAllByText('¿Qué necesitas? 1 Saldo 2 Asesor')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Simular que no responde' }));
    await waitFor(() => expect(log().getByText('Hasta pronto.')).toBeInTheDocument());
  },
};

/** A flow with a training file: an answer the step does not know as written goes where the file says it means. */
export const TrainedPhraseChoosesItsResponse: Story = {
  args: { meanings: async (text: string) => (text.toLowerCase().includes('hablar con alguien') ? ['asesor'] : []) },
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: 'Iniciar conversación' }));
    await userEvent.type(screen.getByLabelText('Tu respuesta'), 'Necesito hablar con alguien');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(log().getByText('Un asesor te escribirá.')).toBeInTheDocument());
    await expect(log().queryByText('No entendí.')).not.toBeInTheDocument();
  },
};

// An integration step's sample answer: the preview's successful call answers it, so the value it
// keeps ({{saldo}} from $.cuenta.saldo) reads in the next message instead of an empty hole.
const withIntegration: FlowDefinition = {
  steps: [
    { id: 'start', type: 'initialCall', position: { x: 0, y: 0 }, settings: { text: 'Consultando tu saldo…' } },
    {
      id: 'api', type: 'integration', position: { x: 0, y: 100 },
      settings: { method: 'GET', url: 'https://erp.example.co/saldo', expectedStatus: 200, assignTo: 'saldo', accessPath: '$.cuenta.saldo', sampleAnswer: '{"cuenta": {"saldo": "120.000"}}' },
    },
    { id: 'ok', type: 'end', position: { x: 0, y: 200 }, settings: { text: 'Tu saldo es {{saldo}} créditos.' } },
    { id: 'ko', type: 'end', position: { x: 200, y: 200 }, settings: { text: 'No pudimos consultar tu saldo.' } },
  ],
  edges: [
    { from: 'start', output: 'next', to: 'api' },
    { from: 'api', output: 'success', to: 'ok' },
    { from: 'api', output: 'failure', to: 'ko' },
  ],
};

export const IntegrationAnswersWithItsSample: Story = {
  args: { flow: withIntegration },
  play: async () => {
    await userEvent.click(await screen.findByRole('button', { name: 'Iniciar conversación' }));
    await userEvent.click(await screen.findByRole('button', { name: 'La integración responde bien' }));
    await waitFor(() => expect(log().getByText('Tu saldo es 120.000 créditos.')).toBeInTheDocument());
  },
};
