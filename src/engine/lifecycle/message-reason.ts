// Why a message did not go, or not yet: one answer per message, from what the engine
// wrote on it (its state, status code, the channel's error code, the send-window hold). The words
// belong to the locales (enums.message-reason.*, and enums.sms-state.* for `status`); the console's
// `reason` cell shows them with the code beside, in the campaign's messages and in their export.
import type { MessageReason, MessageState } from '../../generated/enums.gen.ts';
import { STATUS } from './message-states.ts';
import { OUTSIDE_WINDOW_CODE } from '../channels/whatsapp/customer-window.ts';
import { EMPTY_PARAMETER_CODE, TEMPLATE_MISMATCH_CODE } from '../channels/whatsapp/template-match.ts';

export interface ReasonOf {
  kind: MessageReason;
  /** Shown beside the words: the status code, the channel's error code, or "held". */
  code: string;
  /** The duplicate window (hours) for `duplicate`. */
  hours: number | null;
  /** When a held message goes (`sendWindow`), or is tried again (`overflow`). */
  until: string | null;
}

export interface ReasonSource {
  state: string;
  status_code: number;
  error_code: string | null;
  held_reason: string | null;
  not_before: Date | string;
}

/** Codes with words of their own. */
const BY_STATUS: ReadonlyMap<number, MessageReason> = new Map([
  [STATUS.blacklisted, 'blockList'], [STATUS.duplicate, 'duplicate'], [STATUS.insufficientCredits, 'insufficientCredits'], [STATUS.invalid, 'invalidNumber'],
]);
/** States in which a message has a reason to show (it did not go, or waits). */
const ENDED_BADLY: readonly MessageState[] = ['rejected', 'failed', 'unauthorized', 'timeout', 'undefined', 'cancelled'];

/** The reason a message shows, or null when it went (or is simply on its way). */
export function reasonOf(m: ReasonSource, duplicateHours: number): ReasonOf | null {
  const none = { hours: null, until: null };
  if (m.state === 'queued' && m.held_reason) return { kind: 'sendWindow', code: 'held', hours: null, until: new Date(m.not_before).toISOString() };
  if (m.state === 'overflow') return { kind: 'overflow', code: String(m.status_code), hours: null, until: new Date(m.not_before).toISOString() };
  if (!ENDED_BADLY.includes(m.state as MessageState)) return null;
  if (m.state === 'unauthorized') return { kind: 'unauthorized', code: m.error_code ?? String(m.status_code), ...none };
  if (m.error_code === OUTSIDE_WINDOW_CODE) return { kind: 'whatsappWindow', code: m.error_code, ...none };
  if (m.error_code === TEMPLATE_MISMATCH_CODE) return { kind: 'whatsappTemplateMismatch', code: m.error_code, ...none };
  if (m.error_code === EMPTY_PARAMETER_CODE) return { kind: 'whatsappEmptyParameter', code: m.error_code, ...none };
  const byStatus = BY_STATUS.get(m.status_code);
  if (byStatus === 'duplicate') return { kind: byStatus, code: String(m.status_code), hours: duplicateHours, until: null };
  if (byStatus) return { kind: byStatus, code: String(m.status_code), ...none };
  if (m.error_code) return { kind: 'channelError', code: m.error_code, ...none };
  return { kind: 'status', code: String(m.status_code), ...none };
}
