// src/core/password-policy.ts: spec 5 (8 to 256 characters; upper, lower, number, special; some
// characters refused).
import { describe, expect, it } from 'vitest';
import { isValidPassword, PASSWORD_SPECIALS, passwordProblems, type PasswordProblem } from '../../src/core/password-policy.ts';

const cases: [string, string, PasswordProblem[]][] = [
  ['a good password', 'Segura#2025', []],
  ['exactly 8 characters', 'Aa1#aaaa', []],
  ['7 characters', 'Aa1#aaa', ['length']],
  ['exactly 256 characters', `Aa1#${'x'.repeat(252)}`, []],
  ['257 characters', `Aa1#${'x'.repeat(253)}`, ['length']],
  ['length counts code points, not UTF-16 units', `Aa1#${'😀'.repeat(4)}`, []],
  ['no uppercase', 'segura#2025', ['uppercase']],
  ['no lowercase', 'SEGURA#2025', ['lowercase']],
  ['no number', 'Segura#clave', ['number']],
  ['no special', 'Segura2025x', ['special']],
  ['accented letters count as letters', 'Ñandú#2025', []],
  ['a space is refused', 'Segura #2025', ['forbiddenCharacter']],
  ['a tab is refused', 'Segura\t#2025', ['forbiddenCharacter']],
  ['a double quote is refused', 'Segura"#2025', ['forbiddenCharacter']],
  ["a single quote is refused", "Segura'#2025", ['forbiddenCharacter']],
  ['a backtick is refused', 'Segura`#2025', ['forbiddenCharacter']],
  ['a backslash is refused', 'Segura\\#2025', ['forbiddenCharacter']],
  ['angle brackets are refused', 'Segura<#>2025', ['forbiddenCharacter']],
  ['a control character is refused', 'Segura\u0000#2025', ['forbiddenCharacter']],
  ['an empty password fails everything but forbidden', '', ['length', 'uppercase', 'lowercase', 'number', 'special']],
  ['a special that is not in the list does not count', 'Segura€2025', ['special']],
];

describe('passwordProblems', () => {
  it.each(cases)('%s', (_name, given, want) => {
    expect(passwordProblems(given)).toEqual(want);
    expect(isValidPassword(given)).toBe(want.length === 0);
  });

  it.each([...PASSWORD_SPECIALS])('"%s" counts as a special character', (special) => {
    expect(passwordProblems(`Segura2025${special}`)).toEqual([]);
  });
});
