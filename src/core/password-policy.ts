// The password policy of spec section 5, written once for the console (form validation) and the
// server (register, reset, change). Length limits come from config/constants.yaml.
import { constants } from '../generated/constants.gen.ts';

export type PasswordProblem = 'length' | 'uppercase' | 'lowercase' | 'number' | 'special' | 'forbiddenCharacter';

/** Special characters that count toward the "special" rule. */
export const PASSWORD_SPECIALS = "!#$%&()*+,-./:;=?@[]^_{|}~";
/**
 * The spec says "some special characters are not allowed" without naming them. We refuse
 * whitespace, control characters, quotes, backslash and angle brackets: they break copy-paste,
 * shell and CSV handling and are the usual injection carriers.
 */
const FORBIDDEN = /[\s\p{Cc}"'`\\<>]/u;

export function passwordProblems(password: string): PasswordProblem[] {
  const { passwordMin, passwordMax } = constants.limits;
  const problems: PasswordProblem[] = [];
  const length = [...password].length;
  if (length < passwordMin || length > passwordMax) problems.push('length');
  if (!/\p{Lu}/u.test(password)) problems.push('uppercase');
  if (!/\p{Ll}/u.test(password)) problems.push('lowercase');
  if (!/[0-9]/.test(password)) problems.push('number');
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c))) problems.push('special');
  if (FORBIDDEN.test(password)) problems.push('forbiddenCharacter');
  return problems;
}

export const isValidPassword = (password: string) => passwordProblems(password).length === 0;
