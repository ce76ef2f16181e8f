// Sandbox human verification: accepts exactly the token `sandbox-ok` (config/app.yaml captcha
// provider "sandbox"), so demos and tests can pass and fail the check on purpose.
import type { CaptchaVerifier } from '../core/ports/captcha.ts';

export const SANDBOX_CAPTCHA_TOKEN = 'sandbox-ok';

export const sandboxCaptchaVerifier: CaptchaVerifier = {
  async verify(token) {
    return token === SANDBOX_CAPTCHA_TOKEN;
  },
};
