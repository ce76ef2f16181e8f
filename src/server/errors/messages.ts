// The `message` of an error answer: English text from locales/en/errors.json (the console's own
// catalogue, so the two never drift; read by the server's one owner of words, document-words.ts),
// falling back to Spanish for Spanish-only codes. A few texts are part of the wire contract
// because the console maps them by text (spec 8, config/errors.yaml `messages`): those are fixed
// here, exactly.
import { wordsFor } from '../i18n/document-words.ts';

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

export function catalogueMessage(code: string): string {
  return byCode[code] ?? wordsFor('en').errorText(code) ?? 'Error';
}
