// E-mail rules: a plain syntax check, and "corporate only" (spec 5): public mailbox providers
// listed in config/app.yaml are refused at registration with 99947.
import { appSettings } from '../generated/app.gen.ts';

// Deliberately simple (RFC 5322 is not what users type): one @, no spaces, a dotted domain.
const EMAIL = /^[^\s@<>()"',;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export function isCorporateEmail(email: string, publicDomains: readonly string[] = appSettings.publicEmailDomains): boolean {
  if (!isEmail(email)) return false;
  const domain = emailDomain(email);
  return !publicDomains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** E-mail addresses are compared case-insensitively everywhere. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
