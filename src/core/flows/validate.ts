// The flow rules (spec 4 and 5), checked by this one validator in the editor (marks on the nodes,
// as the person draws) and on the server (a version is published only without problems). Each
// problem names its rule (the flow-rule vocabulary, labelled in locales/*/enums.json) and where
// it is: the step, the output or the setting.
import { flowStepTypeMeta, type FlowRule } from '../../generated/enums.gen.ts';
import type { FlowDefinition, FlowStep, FlowStepSettings } from '../../generated/types.gen.ts';
import { validateTemplate } from '../message-content.ts';
import { patternProblem } from '../user-pattern.ts';
import { normalizeAnswer } from './matching.ts';
import { stepKinds, stepWaits, type Setting } from './steps.ts';

export interface FlowProblem {
  rule: FlowRule;
  stepId?: string;
  output?: string;
  field?: Setting | `responses.${number}`;
}

function filled(v: FlowStepSettings[Setting]): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** A pattern that cannot be used: not an expression (regexInvalid), or one RE2 does not run (regexUnsupported). */
const patternRule = (pattern: string): FlowRule => (patternProblem(pattern) === 'unsupported' ? 'regexUnsupported' : 'regexInvalid');

function stepProblems(step: FlowStep, usesKeywords: boolean): FlowProblem[] {
  const s = step.settings;
  const kind = stepKinds[step.type];
  const at = { stepId: step.id };
  const problems: FlowProblem[] = [];
  for (const field of kind.required(s)) if (!filled(s[field])) problems.push({ rule: 'fieldRequired', ...at, field });
  for (const field of ['text', 'nonMatchMessage', 'body', 'url', 'to'] as const) {
    if (kind.settings.includes(field) && typeof s[field] === 'string' && validateTemplate(s[field]).length) problems.push({ rule: 'textInvalid', ...at, field });
  }
  const responses = s.responses ?? [];
  if (s.obligatoryMatch && step.type === 'send' && !responses.length) problems.push({ rule: 'responseRequired', ...at, field: 'responses' });
  if (stepWaits(step)) {
    if (s.maxRetries !== undefined && s.maxRetries <= 0) problems.push({ rule: 'retriesAboveZero', ...at, field: 'maxRetries' });
    if (s.waitMinutes !== undefined && s.waitMinutes <= 0) problems.push({ rule: 'waitAboveZero', ...at, field: 'waitMinutes' });
  }
  // Responses unique per step: ids, labels and keywords, as people would type them.
  const seen = new Set<string>();
  responses.forEach((r, i) => {
    const words = [`id:${r.id}`, `w:${normalizeAnswer(r.label)}`, ...r.keywords.map((k) => `w:${normalizeAnswer(k)}`)];
    if (words.some((w) => seen.has(w))) problems.push({ rule: 'responseTwice', ...at, field: `responses.${i}` });
    for (const w of new Set(words)) seen.add(w);
    if (r.pattern && patternProblem(r.pattern)) problems.push({ rule: patternRule(r.pattern), ...at, field: `responses.${i}` });
  });
  if (kind.settings.includes('pattern') && s.pattern && patternProblem(s.pattern)) problems.push({ rule: patternRule(s.pattern), ...at, field: 'pattern' });
  if (step.type === 'conditional' && s.operator === 'matches' && s.value && patternProblem(s.value)) problems.push({ rule: patternRule(s.value), ...at, field: 'value' });
  // Keywords used on the flow's send steps: every send step that waits says its own.
  if (step.type === 'send' && usesKeywords && responses.length && !filled(s.keywords) && responses.every((r) => !r.keywords.length)) {
    problems.push({ rule: 'keywordRequired', ...at, field: 'keywords' });
  }
  return problems;
}

/** Every rule the flow breaks (empty when it may be published). */
export function validateFlow(flow: FlowDefinition): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const ids = new Map(flow.steps.map((s) => [s.id, s]));
  const entries = flow.steps.filter((s) => flowStepTypeMeta[s.type].entry);
  if (!entries.length) problems.push({ rule: 'noEntry' });
  for (const type of new Set(entries.map((e) => e.type))) {
    const same = entries.filter((e) => e.type === type);
    if (same.length > 1) for (const e of same.slice(1)) problems.push({ rule: 'twoEntries', stepId: e.id });
  }
  const usesKeywords = flow.steps.some((s) => s.type === 'send' && (filled(s.settings.keywords) || (s.settings.responses ?? []).some((r) => r.keywords.length > 0)));
  for (const step of flow.steps) {
    problems.push(...stepProblems(step, usesKeywords));
    const outputs = stepKinds[step.type].outputs(step.settings);
    for (const output of outputs) {
      const n = flow.edges.filter((e) => e.from === step.id && e.output === output).length;
      if (n === 0) problems.push({ rule: 'outputOpen', stepId: step.id, output });
      if (n > 1) problems.push({ rule: 'outputTwice', stepId: step.id, output });
    }
    if (!flowStepTypeMeta[step.type].entry && !flow.edges.some((e) => e.to === step.id && e.from !== step.id && ids.has(e.from))) {
      problems.push({ rule: 'stepAlone', stepId: step.id });
    }
  }
  for (const e of flow.edges) {
    const from = ids.get(e.from);
    if (!from || !ids.has(e.to) || !stepKinds[from.type].outputs(from.settings).includes(e.output)) {
      problems.push({ rule: 'unknownStep', ...(from ? { stepId: from.id } : {}), output: e.output });
    } else if (e.from === e.to && !stepWaits(from)) problems.push({ rule: 'selfLoop', stepId: from.id, output: e.output });
  }
  return problems;
}
