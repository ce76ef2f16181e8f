// A flow's integration step calls the URL it names on the company's behalf, so the address is
// checked when the draft is saved and again when it is published, by the policy the call itself
// obeys (security/outbound-guard.ts): no private or loopback address however it is spelled, never
// this server or its sandbox endpoints. Variables may fill the path and the query, never the
// scheme, host or port: a customer's answer must not choose where the server connects.
import type { FlowDefinition } from '../../../generated/types.gen.ts';
import { fieldError, type FieldError } from '../../errors/api-error.ts';
import type { OutboundPolicy } from '../../security/outbound-guard.ts';

/** Why one integration URL template may not be called, or null. */
export function integrationUrlRefusal(template: string, outbound: OutboundPolicy): string | null {
  const origin = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(template.trim())?.[1];
  if (!origin) return 'an absolute http or https URL';
  if (origin.includes('{{')) return 'the scheme, host and port may not come from a variable';
  let url: URL;
  try {
    url = new URL(template.trim().replace(/\{\{[^}]*\}\}/g, 'x'));
  } catch {
    return 'not a URL';
  }
  return outbound.urlRefusal(url);
}

/** One 99931 per integration step whose URL may not be called (field steps/<step id>/url). */
export function integrationUrlErrors(draft: FlowDefinition | undefined, outbound: OutboundPolicy): FieldError[] {
  const errors: FieldError[] = [];
  for (const step of draft?.steps ?? []) {
    const url = step.type === 'integration' ? step.settings.url : undefined;
    if (typeof url !== 'string' || url.trim() === '') continue;
    const refusal = integrationUrlRefusal(url, outbound);
    if (refusal) errors.push(fieldError(`steps/${step.id}/url`, '99931', refusal));
  }
  return errors;
}
