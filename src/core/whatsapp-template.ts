// Meta's rules for the body of a WhatsApp template (research protocols.md 2.1 and 2.6; Meta's
// "Message Templates" guide), on top of the content rules every message follows
// (message-content.ts: {{variables}}, no external links):
// - parameters are positional, {{1}}, {{2}}… numbered in the order they first appear, or named,
//   lowercase letters, digits and _ starting with a letter ({{nombre_cliente}}); never both;
// - the text may not begin or end with a parameter;
// - the body takes at most 1024 characters;
// - an AUTHENTICATION template has no body of ours: Meta writes "<code> is your verification
//   code" itself, so the content holds exactly one parameter, the code.
// The category a purpose implies (commercial → MARKETING, transactional → UTILITY, otp →
// AUTHENTICATION) is the default when none is chosen.
import type { MessagePurpose, TemplateCategory } from '../generated/enums.gen.ts';
import { variablesOf } from './message-content.ts';
import { ANY_SPACE, wholeMatchGroups } from './user-pattern.ts';

/** Meta's limit on a template's body text, in characters. */
export const WHATSAPP_TEMPLATE_BODY_MAX = 1024;

const NAMED = /^[a-z][a-z0-9_]*$/;
const POSITIONAL = /^[1-9][0-9]*$/;

export const categoryForPurpose: Record<MessagePurpose, TemplateCategory> = {
  commercial: 'MARKETING',
  transactional: 'UTILITY',
  otp: 'AUTHENTICATION',
};

export type ParameterFormat = 'positional' | 'named';

export type WhatsAppBodyProblem =
  | { code: 'tooLong'; detail: string }
  | { code: 'mixedParameters' | 'unorderedParameters' | 'invalidName' | 'parameterAtEdge' | 'authenticationParameters'; detail: string };

/** How the content's parameters are written: positional, named, or null when it has none. */
export function parameterFormat(variables: readonly string[]): ParameterFormat | null {
  if (variables.length === 0) return null;
  return variables.every((v) => POSITIONAL.test(v)) ? 'positional' : 'named';
}

/** The first of Meta's body rules the content breaks, or null. The content is valid for campaigns already. */
export function whatsappBodyProblem(content: string, category: TemplateCategory): WhatsAppBodyProblem | null {
  const length = Array.from(content).length;
  if (length > WHATSAPP_TEMPLATE_BODY_MAX) return { code: 'tooLong', detail: `${length} characters; WhatsApp templates take at most ${WHATSAPP_TEMPLATE_BODY_MAX}` };
  const variables = variablesOf(content);
  if (category === 'AUTHENTICATION') {
    return variables.length === 1 ? null : { code: 'authenticationParameters', detail: 'an authentication template carries exactly one variable: the code' };
  }
  if (variables.length === 0) return null;
  const positional = variables.filter((v) => POSITIONAL.test(v));
  if (positional.length > 0 && positional.length < variables.length) return { code: 'mixedParameters', detail: 'numbered and named variables cannot be mixed' };
  if (positional.length > 0) {
    const wrong = positional.findIndex((v, i) => Number(v) !== i + 1);
    if (wrong !== -1) return { code: 'unorderedParameters', detail: `{{${positional[wrong]}}} should be {{${wrong + 1}}}: number the variables 1, 2, 3… in the order they appear` };
  } else {
    const bad = variables.find((v) => !NAMED.test(v));
    if (bad) return { code: 'invalidName', detail: `{{${bad}}}: named variables are lowercase letters, digits and _, starting with a letter` };
  }
  const trimmed = content.trim();
  if (/^\{\{[^{}]*\}\}/.test(trimmed) || /\{\{[^{}]*\}\}$/.test(trimmed)) return { code: 'parameterAtEdge', detail: 'the text cannot begin or end with a variable' };
  return null;
}

const TOKEN = /\{\{\s*([^{}]*?)\s*\}\}/g;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The parameters that make a template's content read as `text` — its words as written (spaces
 * loose), each {{variable}} standing for some text — or null when it does not (Gupshup's "template
 * matching", the spec's 1005 when nothing matches). Positional templates answer the values in the
 * order of their numbers, named ones by name; a variable used twice must stand for the same text.
 */
export function matchTemplateText(content: string, text: string): string[] | Record<string, string> | null {
  const names: string[] = [];
  let pattern = '';
  let last = 0;
  for (const m of content.matchAll(TOKEN)) {
    pattern += escapeRegExp(content.slice(last, m.index)).replace(/\s+/g, `${ANY_SPACE}+`);
    pattern += '(.+?)';
    names.push(m[1]);
    last = m.index + m[0].length;
  }
  pattern += escapeRegExp(content.slice(last)).replace(/\s+/g, `${ANY_SPACE}+`);
  // Run by RE2 (core/user-pattern.ts): with several variables and words after them, RegExp tried
  // every way of splitting a text that does not fit, for seconds.
  const groups = wholeMatchGroups(`${ANY_SPACE}*${pattern}${ANY_SPACE}*`, text);
  if (!groups) return null;
  const values = new Map<string, string>();
  for (const [i, name] of names.entries()) {
    const value = groups[i].trim();
    if (!value || (values.has(name) && values.get(name) !== value)) return null;
    values.set(name, value);
  }
  if (parameterFormat([...values.keys()]) === 'positional') return [...values.entries()].sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  return Object.fromEntries(values);
}
