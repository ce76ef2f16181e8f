// The flow rules of spec 4 and 5, one row per rule: a valid flow broken in one place reports that
// rule at that place, and nothing else.
import { describe, expect, it } from 'vitest';
import { validateFlow, type FlowProblem } from '../../src/core/flows/validate.ts';
import { flowRules, type FlowRule } from '../../src/generated/enums.gen.ts';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';
import { menuFlow, step } from './flows-fixtures.ts';

type Break = (f: FlowDefinition) => void;
const ask = (f: FlowDefinition) => f.steps.find((s) => s.id === 'ask')!;

type Where = { stepId?: string; output?: string; field?: string };
/** The rule, how to break it, where it is reported (and what else that break necessarily causes). */
const table: [FlowRule, Break, Where, FlowProblem[]?][] = [
  ['noEntry', (f) => { f.steps = f.steps.filter((s) => s.id !== 'start'); f.edges = f.edges.filter((e) => e.from !== 'start'); }, {}, [{ rule: 'stepAlone', stepId: 'ask' }]],
  ['twoEntries', (f) => { f.steps.push(step('start2', 'initialCall')); f.edges.push({ from: 'start2', output: 'next', to: 'ask' }); }, { stepId: 'start2' }],
  ['outputTwice', (f) => { f.edges.push({ from: 'ask', output: 'timeout', to: 'done' }); }, { stepId: 'ask', output: 'timeout' }],
  ['outputOpen', (f) => { f.edges = f.edges.filter((e) => !(e.from === 'api' && e.output === 'failure')); }, { stepId: 'api', output: 'failure' }],
  ['stepAlone', (f) => { f.steps.push(step('lost', 'end', { text: 'x' })); }, { stepId: 'lost' }],
  ['unknownStep', (f) => { f.edges.push({ from: 'ask', output: 'gone', to: 'done' }); }, { stepId: 'ask', output: 'gone' }],
  ['responseRequired', (f) => { ask(f).settings.responses = []; f.edges = f.edges.filter((e) => e.from !== 'ask' || e.output === 'next'); f.edges.push({ from: 'ask', output: 'next', to: 'api' }); }, { stepId: 'ask', field: 'responses' }],
  ['responseTwice', (f) => { ask(f).settings.responses![1].keywords.push('PAGÓ'.replace('Ó', 'O')); ask(f).settings.responses![1].keywords.push('Pago'); }, { stepId: 'ask', field: 'responses.1' }],
  ['retriesAboveZero', (f) => { ask(f).settings.maxRetries = 0; }, { stepId: 'ask', field: 'maxRetries' }],
  ['waitAboveZero', (f) => { ask(f).settings.waitMinutes = 0; }, { stepId: 'ask', field: 'waitMinutes' }],
  ['regexInvalid', (f) => { ask(f).settings.responses![0].pattern = '(unclosed'; }, { stepId: 'ask', field: 'responses.0' }],
  ['regexUnsupported', (f) => { ask(f).settings.responses![0].pattern = '(a)\\1'; }, { stepId: 'ask', field: 'responses.0' }],
  ['keywordRequired', (f) => {
    f.steps.push(step('more', 'send', { text: '¿Algo más?', maxRetries: 1, waitMinutes: 1, responses: [{ id: 'y', label: 'Sí', keywords: [] }] }));
    f.edges = f.edges.map((e) => (e.from === 'ask' && e.output === 'query' ? { ...e, to: 'more' } : e));
    f.edges.push({ from: 'more', output: 'y', to: 'done' }, { from: 'more', output: 'noMatch', to: 'bye' }, { from: 'more', output: 'timeout', to: 'bye' });
  }, { stepId: 'more', field: 'keywords' }],
  ['fieldRequired', (f) => { f.steps.find((s) => s.id === 'api')!.settings.url = ' '; }, { stepId: 'api', field: 'url' }],
  ['selfLoop', (f) => { f.steps.push(step('check', 'conditional', { variable: 'saldo', operator: 'present' })); f.edges = f.edges.map((e) => (e.from === 'api' && e.output === 'success' ? { ...e, to: 'check' } : e)); f.edges.push({ from: 'check', output: 'yes', to: 'done' }, { from: 'check', output: 'no', to: 'check' }); }, { stepId: 'check', output: 'no' }],
  ['textInvalid', (f) => { f.steps.find((s) => s.id === 'done')!.settings.text = 'Saldo {{saldo'; }, { stepId: 'done', field: 'text' }],
];

describe('the flow validator', () => {
  it('finds nothing wrong with a valid flow', () => {
    expect(validateFlow(menuFlow())).toEqual([]);
  });

  it('covers every rule of the vocabulary', () => {
    expect(table.map(([rule]) => rule).sort()).toEqual([...flowRules].sort());
  });

  it.each(table)('%s: names the rule and where it is broken', (rule, breakIt, where, also = []) => {
    const flow = menuFlow();
    breakIt(flow);
    expect(validateFlow(flow)).toEqual([{ rule, ...where }, ...also]);
  });

  it('asks a conditional for its value unless it only checks that the variable has one', () => {
    const flow = menuFlow();
    flow.steps.push(step('check', 'conditional', { variable: 'saldo', operator: 'equals' }));
    flow.edges = flow.edges.map((e) => (e.from === 'api' && e.output === 'success' ? { ...e, to: 'check' } : e));
    flow.edges.push({ from: 'check', output: 'yes', to: 'done' }, { from: 'check', output: 'no', to: 'bye' });
    expect(validateFlow(flow)).toEqual([{ rule: 'fieldRequired', stepId: 'check', field: 'value' }]);
    flow.steps.at(-1)!.settings.operator = 'present';
    expect(validateFlow(flow)).toEqual([]);
  });
});
