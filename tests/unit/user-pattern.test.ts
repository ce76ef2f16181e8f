// People's regular expressions run by RE2 (core/user-pattern.ts): a pattern that makes
// JavaScript's backtracking engine take exponential time answers at once, the patterns flows use
// keep working, and what RE2 does not run is told apart from what is not an expression at all.
import { describe, expect, it } from 'vitest';
import { matchResponse } from '../../src/core/flows/matching.ts';
import { validateFlow } from '../../src/core/flows/validate.ts';
import { compileUserPattern, patternProblem } from '../../src/core/user-pattern.ts';
import { matchTemplateText } from '../../src/core/whatsapp-template.ts';
import { menuFlow } from './flows-fixtures.ts';

describe('user patterns', () => {
  it('^(a+)+$ against 40 a and a b answers no (JavaScript would backtrack 2^40 ways)', () => {
    const answer = `${'a'.repeat(40)}b`;
    expect(compileUserPattern('^(a+)+$')!.test(answer)).toBe(false);
    expect(compileUserPattern('^(a+)+$')!.test('a'.repeat(40))).toBe(true);
    expect(matchResponse([{ id: 'evil', label: 'Malvada', keywords: [], pattern: '^(a+)+$' }], answer)).toBeNull();
    expect(matchResponse([{ id: 'evil', label: 'Malvada', keywords: [], pattern: '(x+x+)+y' }], 'x'.repeat(999))).toBeNull();
  });

  it('keeps the syntax flows use: classes, anchors, counts, alternation, Unicode letters, case-insensitive', () => {
    const cases: [string, string, boolean][] = [
      ['^\\d{6,10}$', '1020304050', true],
      ['^\\d{6,10}$', '12345', false],
      ['^(si|sí|yes)$', 'SÍ', true],
      ['\\bpagar\\b', 'quiero pagar ya', true],
      ['^\\p{L}+$', 'Ñandú', true],
      ['[a-z]+@[a-z]+\\.co', 'Escribe a ANA@COLIBRI.CO', true],
      ['^(?<doc>\\d+)-\\d$', '900123-4', true],
      ['a.c', 'a\nc', false],
    ];
    for (const [pattern, text, expected] of cases) expect([pattern, text, compileUserPattern(pattern)?.test(text)]).toEqual([pattern, text, expected]);
  });

  it('tells a pattern RE2 does not run from one that is not an expression', () => {
    for (const p of ['(a)\\1', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', 'a{2000}']) expect([p, patternProblem(p)]).toEqual([p, 'unsupported']);
    for (const p of ['(unclosed', '[z-a]', '*a']) expect([p, patternProblem(p)]).toEqual([p, 'invalid']);
    expect(patternProblem('^\\d+$')).toBeNull();
    expect(compileUserPattern('(a)\\1')).toBeNull();
  });

  it('the flow validator reports each kind on its own rule', () => {
    const flow = menuFlow();
    flow.steps.find((s) => s.id === 'ask')!.settings.responses![0].pattern = 'pa(?=gar)';
    flow.steps.find((s) => s.id === 'ask')!.settings.responses![1].pattern = '(sal';
    expect(validateFlow(flow)).toEqual([
      { rule: 'regexUnsupported', stepId: 'ask', field: 'responses.0' },
      { rule: 'regexInvalid', stepId: 'ask', field: 'responses.1' },
    ]);
  });

  it('a WhatsApp template read from free text runs in linear time too, and reads Unicode spaces and line breaks as before', () => {
    const content = 'Hola {{1}} {{2}} {{3}} {{4}} fin';
    // Four lazy groups before a word the text lacks: RegExp tried every split (0.85 s at 200 words, growing as n⁴).
    expect(matchTemplateText(content, `Hola ${'a '.repeat(2000)}x`)).toBeNull();
    expect(matchTemplateText(content, 'Hola\u00a0Ana  de\nla Cruz, tu  pedido 12 fin ')).toEqual(['Ana', 'de', 'la', 'Cruz, tu  pedido 12']);
    expect(matchTemplateText('Precio $ {{1}} (IVA) [x] {a}', 'Precio $ 10.000 (IVA) [x] {a}')).toEqual(['10.000']);
    expect(matchTemplateText('Cita el {{fecha}}:\n{{detalle}}', 'Cita el lunes:\nA las 9\nsede norte')).toEqual({ fecha: 'lunes', detalle: 'A las 9\nsede norte' });
  });
});
