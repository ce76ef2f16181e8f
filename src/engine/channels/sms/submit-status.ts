// What a submit_sm_resp command_status means for the message (spec SMS status codes):
//   transient  → resubmitted after a back-off (throttled, queue full, SMSC busy or in trouble)
//   rebind     → the SMSC thinks we are not bound: drop the session, bind again, resubmit
//   permanent  → failed with 94 (invalid destination), 60 (our request is wrong) or 92 (dispatch error);
//                `unauthorized` when the SMSC refused our sender (the operator did not authorise the
//                source address or its type): the message reads 'unauthorized', not 'failed'
import { smsStateByName } from '../../../generated/enums.gen.ts';
import { Status } from './wire.ts';

export type SubmitStatusClass = { kind: 'ok' } | { kind: 'transient'; throttling: boolean } | { kind: 'rebind' } | { kind: 'permanent'; statusCode: number; unauthorized?: true };

const INVALID_DESTINATION: ReadonlySet<number> = new Set([Status.RINVDSTADR, Status.RINVDSTTON, Status.RINVDSTNPI]);

/** The sender refused: an operator that has not registered our source address (or its TON/NPI) for this account. */
const SENDER_REFUSED: ReadonlySet<number> = new Set([Status.RINVSRCADR, Status.RINVSRCTON, Status.RINVSRCNPI]);

const REQUEST_ERRORS: ReadonlySet<number> = new Set([
  Status.RINVMSGLEN,
  0x02, // RINVCMDLEN
  0x03, // RINVCMDID
  0x06, // RINVPRTFLG
  0x07, // RINVREGDLVFLG
  Status.RINVSERTYP,
  Status.RINVESMCLASS,
  Status.RINVSCHED,
  Status.RINVEXPIRY,
  0x63, // RINVDFTMSGID
  0xc0, 0xc1, 0xc2, 0xc3, 0xc4, // TLV errors
  Status.RINVDCS,
]);

export function classifySubmitStatus(status: number): SubmitStatusClass {
  if (status === Status.ROK) return { kind: 'ok' };
  if (status === Status.RTHROTTLED || status === Status.RMSGQFUL) return { kind: 'transient', throttling: true };
  // System error and "temporary application error" are the SMSC's trouble, not the message's.
  if (status === Status.RSYSERR || status === Status.RX_T_APPN) return { kind: 'transient', throttling: false };
  if (status === Status.RINVBNDSTS) return { kind: 'rebind' };
  if (INVALID_DESTINATION.has(status)) return { kind: 'permanent', statusCode: smsStateByName.invalid };
  if (SENDER_REFUSED.has(status)) return { kind: 'permanent', statusCode: smsStateByName.dispatchError, unauthorized: true };
  if (REQUEST_ERRORS.has(status)) return { kind: 'permanent', statusCode: smsStateByName.requestError };
  return { kind: 'permanent', statusCode: smsStateByName.dispatchError };
}
