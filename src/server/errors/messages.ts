// The `message` of an error answer: English text from locales/en/errors.json (the console's own
// catalogue, so the two never drift), falling back to Spanish for Spanish-only codes. A few
// texts are part of the wire contract because the console maps them by text (spec 8,
// config/errors.yaml `messages`): those are fixed here, exactly.
import en from '../../../locales/en/errors.json' with { type: 'json' };
import es from '../../../locales/es/errors.json' with { type: 'json' };
import { serverErrors } from '../../generated/errors.gen.ts';

export const contractMessages = {
  accountBlocked: 'Account blocked. Too many login attempts',
  passwordReused: 'The new password has been used recently',
  invalidOtp: 'Invalid OTP code',
} as const;

const byCode: Record<string, string> = {
  '99948': contractMessages.accountBlocked,
  '99939': contractMessages.passwordReused,
  '99941': contractMessages.invalidOtp,
};

const english = en as Record<string, string>;
const spanish = es as Record<string, string>;

export function catalogueMessage(code: string): string {
  if (byCode[code]) return byCode[code];
  const key = (serverErrors as Record<string, { key: string }>)[code]?.key;
  if (!key) return 'Error';
  const short = key.replace(/^errors\./, '');
  return english[short] ?? spanish[short] ?? key;
}
