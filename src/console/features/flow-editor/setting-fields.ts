// How the side panel edits each step setting (schemas/entities/flow-step-settings.yaml): one entry
// per setting — a setting without its entry is a type error. Which settings a step shows and
// requires is the step kind's (src/core/flows/steps.ts); the options of a choice are the YAML
// vocabularies, labelled by their enums.* keys.
import type { Setting } from '../../../core/flows/steps.ts';
import { flowConditionOperators, flowHttpMethods, flowNoMatches } from '../../../generated/enums.gen.ts';

export type SettingField =
  | { kind: 'line' | 'multiline' | 'integer' | 'boolean' | 'words' | 'responses'; max?: number }
  | { kind: 'choice'; options: readonly string[]; enumId: string };

export const settingFields: { [K in Setting]: SettingField } = {
  text: { kind: 'multiline', max: 1000 },
  keywords: { kind: 'words' },
  responses: { kind: 'responses' },
  obligatoryMatch: { kind: 'boolean' },
  noMatch: { kind: 'choice', options: flowNoMatches, enumId: 'flow-no-match' },
  nonMatchMessage: { kind: 'multiline', max: 1000 },
  maxRetries: { kind: 'integer', max: 10 },
  waitMinutes: { kind: 'integer', max: 10080 },
  assignTo: { kind: 'line', max: 40 },
  accessPath: { kind: 'line', max: 200 },
  sampleAnswer: { kind: 'multiline', max: 10000 },
  pattern: { kind: 'line', max: 300 },
  method: { kind: 'choice', options: flowHttpMethods, enumId: 'flow-http-method' },
  url: { kind: 'line', max: 2000 },
  contentType: { kind: 'line', max: 100 },
  body: { kind: 'multiline', max: 10000 },
  expectedStatus: { kind: 'integer', max: 599 },
  timeoutSeconds: { kind: 'integer', max: 30 },
  conditionDescription: { kind: 'line', max: 300 },
  variable: { kind: 'line', max: 40 },
  operator: { kind: 'choice', options: flowConditionOperators, enumId: 'flow-condition-operator' },
  value: { kind: 'line', max: 300 },
  to: { kind: 'line', max: 60 },
};
