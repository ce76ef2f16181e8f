// Small flows for the flow tests: a valid five-step flow (start by keyword, ask, branch, final),
// built step by step so each test breaks one thing.
import type { FlowDefinition, FlowStep } from '../../src/generated/types.gen.ts';

export const step = (id: string, type: FlowStep['type'], settings: FlowStep['settings'] = {}): FlowStep => ({ id, type, settings });

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
      { from: 'ask', output: 'pay', to: 'api' },
      { from: 'ask', output: 'query', to: 'done' },
      { from: 'ask', output: 'noMatch', to: 'bye' },
      { from: 'ask', output: 'timeout', to: 'bye' },
      { from: 'api', output: 'success', to: 'done' },
      { from: 'api', output: 'failure', to: 'bye' },
    ],
  };
}
