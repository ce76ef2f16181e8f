// The engine's refusal of a request: a catalogue code (config/errors.yaml), the detail for the
// person, and the field it concerns when it is one field's. The engine decides what a launch, a
// preview or a deployment action refuses; the server answers it as any other error of the
// catalogue (server/http/error-handler.ts), and background work (recurrence, the FTP intake, the
// launch job) records it as the run's reason.
import type { serverErrors } from '../generated/errors.gen.ts';

export type RefusalCode = keyof typeof serverErrors;

export class Refused extends Error {
  /** The engine's own detail for the person, or undefined: the catalogue's words are the answer's. */
  readonly detail: string | undefined;

  constructor(readonly code: RefusalCode, detail?: string, readonly field?: string) {
    super(detail ?? code);
    this.name = 'Refused';
    this.detail = detail;
  }
}

/** Shorthand: `throw refuse('99959')`. */
export const refuse = (code: RefusalCode, message?: string) => new Refused(code, message);

/** One field's refusal (`flowId` not published: 99994). */
export const refuseField = (field: string, code: RefusalCode) => new Refused(code, undefined, field);
