// The flow runtime: a pure step machine. Given a flow version, a conversation's session and an
// event (the conversation starts, a message comes in, the no-reply timer fires, an integration
// answers), it answers the next session and the effects to carry out (messages to send, an HTTP
// call, a timer to set or cancel, variables kept, what to count). The server's conversations
// (src/engine/conversations) and the editor's preview run this same code; neither decides a step.
//
// Invariant (tests/unit/flows-runtime.test.ts, a property test): after any event, a session that
// has not ended waits for something that will come — a reply with its timer set, or an
// integration's answer. Steps that do not wait are followed at once, at most MAX_HOPS of them per
// event, so a loop of conditionals ends the conversation instead of spinning.
import { flowStepTypeMeta, type ConversationState, type FlowStepEvent, type FlowStepType } from '../../generated/enums.gen.ts';
import type { FlowDefinition, FlowStep } from '../../generated/types.gen.ts';
import { render, variablesOf } from '../message-content.ts';
import { stepKinds, type StepAction, type StepMove, type Variables } from './steps.ts';

export const MAX_HOPS = 50;

export interface Session {
  state: ConversationState;
  /** The step it is at (waiting there, or the last one when it ended). */
  stepId: string | null;
  vars: Variables;
  /** Retries spent at the current step. */
  retries: number;
  /** It left its last waiting step by the timeout: reaching a final step then counts as abandoned. */
  timedOut: boolean;
}

export type EntryKind = Extract<FlowStepType, 'initialPush' | 'initialCall'>;

export type FlowEvent =
  | { kind: 'start'; entry: EntryKind; vars?: Variables }
  /** `meant`: what the flow's training file says this answer means (responses by label or keyword), tried when the answer matches nothing as written. */
  | { kind: 'messageIn'; text: string; meant?: readonly string[] }
  | { kind: 'noReply' }
  | { kind: 'integrationAnswer'; status: number; body: unknown }
  | { kind: 'integrationFailed'; reason: string };

export type Effect =
  | { kind: 'send'; stepId: string; text: string }
  | { kind: 'sendSms'; stepId: string; to: string; text: string }
  | { kind: 'http'; stepId: string; method: string; url: string; contentType: string; body: string | null; timeoutSeconds: number }
  | { kind: 'setTimer'; stepId: string; minutes: number }
  | { kind: 'cancelTimer' }
  | { kind: 'assign'; name: string; value: string }
  | { kind: 'count'; stepId: string; event: FlowStepEvent };

export type Refusal = 'noEntry' | 'notWaiting' | 'ended';

export type Turn = { session: Session; effects: Effect[]; refused?: undefined } | { session: Session; effects: []; refused: Refusal };

export const newSession = (): Session => ({ state: 'waitingReply', stepId: null, vars: {}, retries: 0, timedOut: false });

const ended = (s: Session) => s.state === 'completed' || s.state === 'abandoned';

/** {{variables}} filled from the session; an unknown variable reads as empty (a person never sees braces). */
function renderer(vars: Variables) {
  return (text: string) => {
    try {
      const values: Record<string, string> = {};
      for (const name of variablesOf(text)) values[name] = Object.hasOwn(vars, name) ? vars[name] : '';
      return render(text, values, { allowEmpty: true });
    } catch {
      return text;
    }
  };
}

class Machine {
  readonly effects: Effect[] = [];
  private readonly steps: Map<string, FlowStep>;
  constructor(private readonly flow: FlowDefinition, public session: Session) {
    this.steps = new Map(flow.steps.map((s) => [s.id, s]));
  }

  private assign(vars: Variables | undefined) {
    if (!vars) return;
    this.session = { ...this.session, vars: { ...this.session.vars, ...vars } };
    for (const [name, value] of Object.entries(vars)) this.effects.push({ kind: 'assign', name, value });
  }

  private act(stepId: string, actions: StepAction[]) {
    for (const a of actions) {
      if ('send' in a) this.effects.push({ kind: 'send', stepId, text: a.send });
      else if ('sendSms' in a) this.effects.push({ kind: 'sendSms', stepId, ...a.sendSms });
      else this.effects.push({ kind: 'http', stepId, ...a.http });
    }
  }

  private end(step: FlowStep) {
    this.session = { ...this.session, stepId: step.id, state: this.session.timedOut ? 'abandoned' : 'completed' };
  }

  /** Leaves `from` by `output` and follows steps that do not wait. */
  follow(from: FlowStep, output: string, hops = 0) {
    const edge = this.flow.edges.find((e) => e.from === from.id && e.output === output);
    const next = edge ? this.steps.get(edge.to) : undefined;
    // A broken flow (the validator refuses these before publishing) ends rather than hangs.
    if (!next || hops >= MAX_HOPS) {
      this.session = { ...this.session, stepId: from.id, state: 'abandoned' };
      return;
    }
    this.enter(next, hops + 1);
  }

  enter(step: FlowStep, hops: number) {
    this.session = { ...this.session, stepId: step.id, retries: 0 };
    this.effects.push({ kind: 'count', stepId: step.id, event: 'entered' });
    const { actions, move } = stepKinds[step.type].enter(step.settings, renderer(this.session.vars), this.session.vars);
    this.act(step.id, actions);
    this.move(step, move, hops);
  }

  move(step: FlowStep, move: StepMove, hops: number) {
    if ('end' in move) return this.end(step);
    if ('waitIntegration' in move) {
      this.session = { ...this.session, state: 'waitingIntegration' };
      return;
    }
    if ('waitReply' in move) {
      this.session = { ...this.session, state: 'waitingReply', timedOut: false };
      this.effects.push({ kind: 'setTimer', stepId: step.id, minutes: step.settings.waitMinutes ?? 1 });
      return;
    }
    this.assign(move.assign);
    this.follow(step, move.go, hops);
  }

  /** Asks again: the non-match message (after an answer), the step's text, the timer anew. */
  retry(step: FlowStep, afterAnswer: boolean) {
    const render = renderer(this.session.vars);
    this.session = { ...this.session, retries: this.session.retries + 1, state: 'waitingReply' };
    this.effects.push({ kind: 'count', stepId: step.id, event: 'retried' });
    if (afterAnswer && step.settings.nonMatchMessage?.trim()) this.effects.push({ kind: 'send', stepId: step.id, text: render(step.settings.nonMatchMessage) });
    if (step.settings.text?.trim()) this.effects.push({ kind: 'send', stepId: step.id, text: render(step.settings.text) });
    this.effects.push({ kind: 'setTimer', stepId: step.id, minutes: step.settings.waitMinutes ?? 1 });
  }

  current(): FlowStep | undefined {
    return this.session.stepId ? this.steps.get(this.session.stepId) : undefined;
  }
}

const refuse = (session: Session, refused: Refusal): Turn => ({ session, effects: [], refused });

/** One event applied to a session: the next session and what to do. */
export function advance(flow: FlowDefinition, session: Session, event: FlowEvent): Turn {
  const m = new Machine(flow, session);
  if (event.kind === 'start') {
    const entry = flow.steps.find((s) => s.type === event.entry && flowStepTypeMeta[s.type].entry);
    if (!entry) return refuse(session, 'noEntry');
    m.session = { ...newSession(), vars: { ...(event.vars ?? {}) } };
    m.enter(entry, 0);
    return { session: m.session, effects: m.effects };
  }
  if (ended(session)) return refuse(session, 'ended');
  const step = m.current();
  if (!step) return refuse(session, 'notWaiting');
  const kind = stepKinds[step.type];

  if (event.kind === 'messageIn') {
    if (session.state !== 'waitingReply' || !kind.reply) return refuse(session, 'notWaiting');
    m.effects.push({ kind: 'cancelTimer' }, { kind: 'count', stepId: step.id, event: 'answered' });
    const r = kind.reply(step.settings, event.text, event.meant ?? []);
    if ('again' in r) {
      m.effects.push({ kind: 'count', stepId: step.id, event: 'notMatched' });
      if (session.retries < (step.settings.maxRetries ?? 0)) m.retry(step, true);
      // Retries spent: out by noMatch (a sendLock without an expression has none: an empty answer
      // is then like no answer).
      else m.move(step, { go: kind.outputs(step.settings).includes('noMatch') ? 'noMatch' : 'timeout' }, 0);
      return { session: m.session, effects: m.effects };
    }
    m.effects.push({ kind: 'count', stepId: step.id, event: r.matched ? 'matched' : 'notMatched' });
    m.move(step, { go: r.go, ...(r.assign ? { assign: r.assign } : {}) }, 0);
    return { session: m.session, effects: m.effects };
  }

  if (event.kind === 'noReply') {
    if (session.state !== 'waitingReply') return refuse(session, 'notWaiting');
    if (session.retries < (step.settings.maxRetries ?? 0)) {
      m.retry(step, false);
      return { session: m.session, effects: m.effects };
    }
    m.effects.push({ kind: 'count', stepId: step.id, event: 'timedOut' });
    m.session = { ...m.session, timedOut: true };
    m.follow(step, 'timeout');
    return { session: m.session, effects: m.effects };
  }

  if (session.state !== 'waitingIntegration' || !kind.answer) return refuse(session, 'notWaiting');
  const r = event.kind === 'integrationAnswer' ? kind.answer(step.settings, event.status, event.body) : kind.answer(step.settings, null, null);
  if (r.failed) m.effects.push({ kind: 'count', stepId: step.id, event: 'integrationFailed' });
  m.move(step, { go: r.go, ...(r.assign ? { assign: r.assign } : {}) }, 0);
  return { session: m.session, effects: m.effects };
}
