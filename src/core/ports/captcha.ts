// The captcha port: human verification before sign-in and password reset. The sandbox
// implements it (src/sandbox/captcha.ts); reCAPTCHA or Turnstile implement the same shape.

export interface CaptchaVerifier {
  /** True when the token proves a human; `remoteIp` is passed on to providers that use it. */
  verify(token: string | undefined, remoteIp?: string): Promise<boolean>;
}
