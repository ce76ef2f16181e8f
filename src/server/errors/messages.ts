// English fallback text for the codes this server answers with. The console shows its own
// translation by code (locales/); this text is what other clients and logs see. A few texts are
// part of the wire contract because the console maps them by text (spec 8, config/errors.yaml
// `messages`): keep those exactly.
export const contractMessages = {
  accountBlocked: 'Account blocked. Too many login attempts',
  passwordReused: 'The new password has been used recently',
  invalidOtp: 'Invalid OTP code',
} as const;

export const defaultMessages: Record<string, string> = {
  m1: 'Unexpected error',
  '99999': 'Missing required field',
  '99998': 'Invalid captcha',
  '99997': 'There is no account with that email',
  '99996': 'Invalid credentials',
  '99995': 'Registration not completed',
  '99989': 'The email is linked to another user',
  '99988': 'The phone is linked to another user',
  '99982': 'Not enough permissions',
  '99959': 'Data not found',
  '99953': 'No authorization',
  '99950': 'General error',
  '99948': contractMessages.accountBlocked,
  '99947': 'Dominio no permitido',
  '99941': contractMessages.invalidOtp,
  '99940': 'The OTP code has expired',
  '99939': contractMessages.passwordReused,
  '99938': 'The password does not meet the password policy',
  '99937': 'Payload too large',
  '99936': 'Not found',
  '99935': 'The current password is not correct',
  '99934': 'The terms of service must be accepted',
  '99933': 'Too many requests',
  '99932': 'Invalid file',
  '99931': 'Invalid field',
};
