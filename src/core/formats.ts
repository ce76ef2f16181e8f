// The custom JSON Schema formats our declarations use. The same map feeds the server's Ajv
// (Fastify) and the console's rjsf validator, so a value is judged the same in both places.
import { isCidr } from './cidr.ts';
import { isCorporateEmail } from './email.ts';
import { isValidNit } from './nit.ts';
import { isValidPassword } from './password-policy.ts';
import { isColombianPhone } from './phone.ts';

export const customFormats = {
  'corporate-email': (v: string) => isCorporateEmail(v),
  'password-policy': (v: string) => isValidPassword(v),
  'phone-co': (v: string) => isColombianPhone(v),
  cidr: (v: string) => isCidr(v),
  'nit-co': (v: string) => isValidNit(v),
} as const;

export type CustomFormat = keyof typeof customFormats;
