// Small flows for the flow tests: a valid five-step flow (start by keyword, ask, branch, final),
// built step by step so each test breaks one thing.
import { answerEdges, step } from '../../src/core/flows/build.ts';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';

export { step };

/** Hola → ¿Pagar o consultar? (2 retries, 5 min) → pagar: integration → final; consultar: final; no match / timeout: final. */
export function menuFlow(): FlowDefinition {
  return {
    steps: [
      step('start', 'initialCall', { keywords: ['hola'], text: 'Hola {{nombre}}' }),
      step('ask', 'send', {
        text: '¿Qué quieres hacer? 1 Pagar 2 Consultar', obligatoryMatch: true, noMatch: 'retry', nonMatchMessage: 'No entendí.', maxRetries: 2, waitMinutes: 5, assignTo: 'opcion',
        responses: [{ id: 'pay', label: 'Pagar', keywords: ['pago', 'pagar'] }, { id: 'query', label: 'Consultar', keywords: ['saldo'] }],
      }),
      step('api', 'integration', { method: 'GET', url: 'https://example.co/saldo?o={{opcion}}', expectedStatus: 200, assignTo: 'saldo', accessPath: '$.data.balance' }),
      step('done', 'end', { text: 'Tu saldo: {{saldo}}' }),
      step('bye', 'end', { text: 'Adiós' }),
    ],
    edges: [
      { from: 'start', output: 'next', to: 'ask' },
      ...answerEdges('ask', { pay: 'api', query: 'done' }, 'bye'),
      { from: 'api', output: 'success', to: 'done' },
      { from: 'api', output: 'failure', to: 'bye' },
    ],
  };
}
