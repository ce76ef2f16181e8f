// How a person's answer is matched against a step's possible responses, the same in the server's
// conversations and the editor's preview. People answer "Sí", "si", " SI " or "1" for the first
// option: case, accents, spaces and the option's number do not matter; a keyword counts as a
// whole word of the answer ("quiero pagar" chooses the response with keyword "pagar"); a
// response's regular expression is tried as written (case-insensitive), by the linear-time engine
// of core/user-pattern.ts.
import type { FlowResponse } from '../../generated/types.gen.ts';
import { compileUserPattern, type UserPattern } from '../user-pattern.ts';

/** Answers longer than this are cut before matching: an expression never runs over a whole essay. */
export const MATCH_INPUT_LIMIT = 1000;

/** Lowercase, without accents (ñ stays: "año" is not "ano"), single spaces, trimmed. */
export function normalizeAnswer(text: string): string {
  return text
    .slice(0, MATCH_INPUT_LIMIT)
    .normalize('NFD')
    .replace(/(?!\u0303)[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/^[\s¡¿.,;:!?]+|[\s.,;:!?]+$/g, '');
}

/** The expression compiled as the flows use it, or null when it cannot be used (core/user-pattern.ts). */
export function compilePattern(pattern: string): UserPattern | null {
  return compileUserPattern(pattern);
}

const words = (normalized: string) => normalized.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The response an answer chooses, or null: by option number, label, keyword (as words) or expression. */
export function matchResponse(responses: readonly FlowResponse[], answer: string): FlowResponse | null {
  const text = normalizeAnswer(answer);
  if (!text) return null;
  if (/^\d{1,2}$/.test(text)) {
    const chosen = responses[Number(text) - 1];
    if (chosen) return chosen;
  }
  for (const r of responses) {
    if (normalizeAnswer(r.label) === text) return r;
    if (r.keywords.some((k) => normalizeAnswer(k) === text)) return r;
  }
  const said = words(text);
  for (const r of responses) {
    if (r.keywords.some((k) => {
      const kw = words(normalizeAnswer(k));
      return kw.length > 0 && said.some((_, i) => kw.every((w, j) => said[i + j] === w));
    })) return r;
  }
  for (const r of responses) {
    const re = r.pattern ? compilePattern(r.pattern) : null;
    if (re?.test(answer.slice(0, MATCH_INPUT_LIMIT))) return r;
  }
  return null;
}

/** Whether an answer is one of the keywords (an agent's entry keywords, an initialCall's). */
export function isKeyword(keywords: readonly string[], answer: string): boolean {
  const text = normalizeAnswer(answer);
  const first = words(text)[0];
  return keywords.some((k) => {
    const kw = normalizeAnswer(k);
    return kw === text || (!kw.includes(' ') && kw === first);
  });
}
