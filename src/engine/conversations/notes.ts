// What the engine notes in a conversation without a message (a call that failed, a lost flow
// version, the SMS a step sent an advisor) and reports as a flow incident: a kind of the flow-note
// vocabulary and its values, stored beside an English line. People read the kind in their own
// language (the server words it); the line is for logs and for whoever reads the table.
import type { FlowNote as FlowNoteKind } from '../../generated/enums.gen.ts';

export type FlowNote = { kind: FlowNoteKind; params: Record<string, string | number> };

const note = (kind: FlowNoteKind, params: FlowNote['params'] = {}): FlowNote => ({ kind, params });

/** The English line stored with a note. */
export function noteLine(n: FlowNote): string {
  const p = n.params;
  switch (n.kind) {
    case 'agentDeleted': return `${p.code} bot and sender mismatch: its agent was deleted; the conversation ended`;
    case 'agentSwitchedOff': return `${p.code} bot and sender mismatch: its agent was switched off; the conversation ended`;
    case 'agentMoved': return `${p.code} bot and sender mismatch: its agent moved to another channel; the conversation ended`;
    case 'agentOtherFlow': return `${p.code} bot and sender mismatch: its agent now runs another flow; the conversation ended`;
    case 'versionMissing': return `flow version ${p.version} is missing`;
    case 'noEntryStep': return 'the flow has no step that starts when a person writes in';
    case 'lostVersionOrChannel': return 'the conversation lost its flow version or channel';
    case 'integrationUnanswered': return `${p.method} ${p.url} did not answer in time (after ${p.attempts} attempts)`;
    case 'integrationUnreachable': return `${p.method} ${p.url} could not be reached: ${p.error} (after ${p.attempts} attempts)`;
    case 'integrationRetriedStatus': return `HTTP ${p.status} from ${p.method} ${p.url} (after ${p.attempts} attempts)`;
    case 'integrationUnexpectedStatus': return `${p.method} ${p.url} answered HTTP ${p.status}, not the status the step expects`;
    case 'noSmsChannel': return `no SMS channel to send to ${p.to}`;
    case 'smsSent': return `SMS → ${p.to}: ${p.text}`;
    case 'campaignFull': return 'the campaign reached its maximum of complete interactions';
  }
}

export const notes = {
  /** An open conversation whose bot no longer answers its sender (why: the agent's change). */
  botMismatch: (code: string, why: 'agentDeleted' | 'agentSwitchedOff' | 'agentMoved' | 'agentOtherFlow') => note(why, { code }),
  versionMissing: (version: number) => note('versionMissing', { version }),
  noEntryStep: () => note('noEntryStep'),
  lostVersionOrChannel: () => note('lostVersionOrChannel'),
  /** A call that failed after its attempts: unanswered in time, unreachable, or a status worth retrying to the end. */
  integrationFailed: (request: { method: string; url: string }, attempts: number, failure: { status: number } | { error: Error }): FlowNote => {
    if ('status' in failure) return note('integrationRetriedStatus', { method: request.method, url: request.url, status: failure.status, attempts });
    const timedOut = failure.error.name === 'TimeoutError' || failure.error.name === 'AbortError';
    return timedOut
      ? note('integrationUnanswered', { method: request.method, url: request.url, attempts })
      // The transport's own code (ECONNREFUSED, a refused private address) as the reason.
      : note('integrationUnreachable', { method: request.method, url: request.url, attempts, error: failure.error.message.replace(/^request failed: /, '') });
  },
  integrationUnexpectedStatus: (request: { method: string; url: string }, status: number) => note('integrationUnexpectedStatus', { method: request.method, url: request.url, status }),
  noSmsChannel: (to: string) => note('noSmsChannel', { to }),
  smsSent: (to: string, text: string) => note('smsSent', { to, text }),
  campaignFull: () => note('campaignFull'),
};
