// What each kind of step is (spec 3), one entry per kind of the flow-step-type vocabulary: a kind
// without its entry is a type error. Each says which settings it takes and requires (the editor's
// side panel shows those; the validator checks them), which outputs it has (each must be
// connected once), what it does when the conversation reaches it, and what it does with the
// events that come while it waits. The runtime (runtime.ts) only follows outputs.
import { flowStepTypeMeta, type FlowStepType } from '../../generated/enums.gen.ts';
import type { FlowResponse, FlowStep, FlowStepSettings } from '../../generated/types.gen.ts';
import { readAccessPath, variableText } from './access-path.ts';
import { compilePattern, MATCH_INPUT_LIMIT, matchResponse, normalizeAnswer } from './matching.ts';

export type Setting = keyof FlowStepSettings;
export type Variables = Record<string, string>;

/** What a step does next: leave by an output, wait, or end the conversation. */
export type StepMove =
  | { go: string; assign?: Variables }
  | { waitReply: true }
  | { waitIntegration: true }
  | { end: true };

/** What a step asks of the outside world when entered (the runtime turns these into effects). */
export type StepAction =
  | { send: string }
  | { sendSms: { to: string; text: string } }
  | { http: { method: NonNullable<FlowStepSettings['method']>; url: string; contentType: string; body: string | null; timeoutSeconds: number } };

export interface EnterResult { actions: StepAction[]; move: StepMove }

export interface StepKind {
  settings: readonly Setting[];
  /** Settings that must be filled (given the others: a send step with responses must say how long it waits). */
  required(s: FlowStepSettings): readonly Setting[];
  /** The outputs, in the order the editor draws them. */
  outputs(s: FlowStepSettings): string[];
  /** Reaching the step. `render` fills {{variables}}. */
  enter(s: FlowStepSettings, render: (text: string) => string, vars: Variables): EnterResult;
  /** An answer while the step waits: leave by an output, or ask again (a retry). `meant`: the training file's meanings of the answer. */
  reply?(s: FlowStepSettings, answer: string, meant: readonly string[]): { go: string; assign?: Variables; matched: boolean } | { again: true };
  /** An integration's answer (status and parsed body), or its failure (status null). */
  answer?(s: FlowStepSettings, status: number | null, body: unknown): { go: string; assign?: Variables; failed: boolean };
}

const text = (s: FlowStepSettings, render: (t: string) => string): StepAction[] => (s.text?.trim() ? [{ send: render(s.text) }] : []);
const waitsForResponses = (s: FlowStepSettings) => (s.responses?.length ?? 0) > 0;

/** Compares a variable with a value (conditional steps). */
function holds(s: FlowStepSettings, vars: Variables): boolean {
  const v = vars[s.variable ?? ''] ?? '';
  const value = s.value ?? '';
  switch (s.operator) {
    case 'equals': return normalizeAnswer(v) === normalizeAnswer(value);
    case 'contains': return normalizeAnswer(v).includes(normalizeAnswer(value));
    case 'matches': return compilePattern(value)?.test(v.slice(0, MATCH_INPUT_LIMIT)) ?? false;
    case 'greater': return v.trim() !== '' && value.trim() !== '' && Number(v) > Number(value);
    case 'less': return v.trim() !== '' && value.trim() !== '' && Number(v) < Number(value);
    case 'present': return v.trim() !== '';
    case undefined: return false;
  }
}

/** A non-matching answer: obligatory match asks again (retry) or leaves by noMatch (goToStep); otherwise it leaves by noMatch. */
const noMatch = (s: FlowStepSettings): { go: string; matched: false } | { again: true } =>
  s.obligatoryMatch && (s.noMatch ?? 'retry') === 'retry' ? { again: true } : { go: 'noMatch', matched: false };

export const stepKinds: { [K in FlowStepType]: StepKind } = {
  initialPush: {
    settings: ['text'],
    required: () => [],
    outputs: () => ['next'],
    enter: (s, render) => ({ actions: text(s, render), move: { go: 'next' } }),
  },
  initialCall: {
    settings: ['keywords', 'text'],
    required: () => [],
    outputs: () => ['next'],
    enter: (s, render) => ({ actions: text(s, render), move: { go: 'next' } }),
  },
  send: {
    settings: ['text', 'keywords', 'responses', 'obligatoryMatch', 'noMatch', 'nonMatchMessage', 'maxRetries', 'waitMinutes', 'assignTo'],
    required: (s) => (waitsForResponses(s) ? ['text', 'waitMinutes', 'maxRetries'] : ['text']),
    outputs: (s) => (waitsForResponses(s) ? [...s.responses!.map((r) => r.id), 'noMatch', 'timeout'] : ['next']),
    enter: (s, render) => ({ actions: text(s, render), move: waitsForResponses(s) ? { waitReply: true } : { go: 'next' } }),
    reply: (s, answer, meant) => {
      const responses = s.responses ?? [];
      // As written first; then what the training file says the answer means ("quiero cancelar mi plan" → "Cancelar").
      const chosen: FlowResponse | null = matchResponse(responses, answer) ?? meant.map((m) => matchResponse(responses, m)).find((r) => r !== null) ?? null;
      if (chosen) return { go: chosen.id, matched: true, ...(s.assignTo ? { assign: { [s.assignTo]: chosen.label } } : {}) };
      const miss = noMatch(s);
      return 'again' in miss ? miss : { ...miss, ...(s.assignTo ? { assign: { [s.assignTo]: answer.slice(0, MATCH_INPUT_LIMIT) } } : {}) };
    },
  },
  sendLock: {
    settings: ['text', 'pattern', 'nonMatchMessage', 'noMatch', 'maxRetries', 'waitMinutes', 'assignTo'],
    required: () => ['text', 'assignTo', 'waitMinutes', 'maxRetries'],
    outputs: (s) => (s.pattern ? ['next', 'noMatch', 'timeout'] : ['next', 'timeout']),
    enter: (s, render) => ({ actions: text(s, render), move: { waitReply: true } }),
    reply: (s, answer) => {
      const kept = answer.trim().slice(0, MATCH_INPUT_LIMIT);
      const re = s.pattern ? compilePattern(s.pattern) : null;
      if (kept && (!s.pattern || re?.test(kept))) return { go: 'next', matched: true, assign: { [s.assignTo!]: kept } };
      if (!s.pattern) return { again: true };
      return (s.noMatch ?? 'retry') === 'retry' ? { again: true } : { go: 'noMatch', matched: false };
    },
  },
  integration: {
    settings: ['method', 'url', 'contentType', 'body', 'expectedStatus', 'timeoutSeconds', 'assignTo', 'accessPath', 'sampleAnswer'],
    required: () => ['method', 'url'],
    outputs: () => ['success', 'failure'],
    enter: (s, render) => ({
      actions: [{ http: { method: s.method!, url: render(s.url!), contentType: s.contentType ?? 'application/json', body: s.body ? render(s.body) : null, timeoutSeconds: s.timeoutSeconds ?? 10 } }],
      move: { waitIntegration: true },
    }),
    answer: (s, status, body) => {
      if (status === null || status !== (s.expectedStatus ?? 200)) return { go: 'failure', failed: true };
      return { go: 'success', failed: false, ...(s.assignTo ? { assign: { [s.assignTo]: variableText(readAccessPath(body, s.accessPath ?? '$')) } } : {}) };
    },
  },
  smx: {
    settings: ['to', 'text'],
    required: () => ['to', 'text'],
    outputs: () => ['next'],
    enter: (s, render) => ({ actions: [{ sendSms: { to: render(s.to!), text: render(s.text!) } }], move: { go: 'next' } }),
  },
  conditional: {
    settings: ['conditionDescription', 'variable', 'operator', 'value'],
    required: (s) => (s.operator === 'present' ? ['variable', 'operator'] : ['variable', 'operator', 'value']),
    outputs: () => ['yes', 'no'],
    enter: (s, _render, vars) => ({ actions: [], move: { go: holds(s, vars) ? 'yes' : 'no' } }),
  },
  end: {
    settings: ['text'],
    required: () => [],
    outputs: () => [],
    enter: (s, render) => ({ actions: text(s, render), move: { end: true } }),
  },
};

/** Whether the step, as set, waits for the person (and so needs a no-reply timer). */
export const stepWaits = (step: FlowStep): boolean =>
  flowStepTypeMeta[step.type].waits && (step.type !== 'send' || waitsForResponses(step.settings));
