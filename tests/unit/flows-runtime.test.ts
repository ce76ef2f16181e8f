// The flow runtime (src/core/flows/runtime.ts): every step type through the events that reach it,
// and a property test — random valid flows and random events never leave a session that has not
// ended without something to wait for (a reply with its timer, or an integration's answer).
import { describe, expect, it } from 'vitest';
import { readAccessPath } from '../../src/core/flows/access-path.ts';
import { matchResponse, normalizeAnswer } from '../../src/core/flows/matching.ts';
import { advance, MAX_HOPS, newSession, type Effect, type FlowEvent, type Session } from '../../src/core/flows/runtime.ts';
import { stepKinds } from '../../src/core/flows/steps.ts';
import { validateFlow } from '../../src/core/flows/validate.ts';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';
import { menuFlow, step } from './flows-fixtures.ts';
import { seededRandom as random, type SeededRandom } from '../fixtures/seeded-random.ts';

const sends = (effects: Effect[]) => effects.flatMap((e) => (e.kind === 'send' ? [e.text] : []));
const counts = (effects: Effect[]) => effects.flatMap((e) => (e.kind === 'count' ? [`${e.stepId}:${e.event}`] : []));

function run(flow: FlowDefinition, events: FlowEvent[], session: Session = newSession()) {
  const all: Effect[] = [];
  for (const e of events) {
    const turn = advance(flow, session, e);
    session = turn.session;
    all.push(...turn.effects);
  }
  return { session, effects: all };
}

describe('matching an answer', () => {
  it('ignores case, accents, spaces and punctuation, keeps ñ, takes the option number and keywords as words', () => {
    expect(normalizeAnswer('  ¡SÍ, Señor!  ')).toBe('si, señor');
    const r = menuFlow().steps[1].settings.responses!;
    expect(matchResponse(r, '2')?.id).toBe('query');
    expect(matchResponse(r, 'PAGAR')?.id).toBe('pay');
    expect(matchResponse(r, 'quiero ver mi saldo por favor')?.id).toBe('query');
    expect(matchResponse(r, 'pagaré')).toBeNull();
    expect(matchResponse(r, '3')).toBeNull();
    expect(matchResponse([{ id: 'doc', label: 'Documento', keywords: [], pattern: '^\\d{6,10}$' }], '1020304050')?.id).toBe('doc');
  });

  it('reads an access path from an integration answer', () => {
    const body = { data: { items: [{ name: 'Ana' }], 'a-b': 1 } };
    expect(readAccessPath(body, '$.data.items[0].name')).toBe('Ana');
    expect(readAccessPath(body, 'data.items.0.name')).toBe('Ana');
    expect(readAccessPath(body, "$.data['a-b']")).toBe(1);
    expect(readAccessPath(body, '$.data.nothing')).toBeUndefined();
    expect(readAccessPath(body, '$.__proto__')).toBeUndefined();
    expect(readAccessPath(body, '$')).toBe(body);
  });
});

describe('the step machine', () => {
  it('starts at the initial call, greets with the variables and waits with a timer', () => {
    const { session, effects } = run(menuFlow(), [{ kind: 'start', entry: 'initialCall', vars: { nombre: 'Ana' } }]);
    expect(sends(effects)).toEqual(['Hola Ana', '¿Qué quieres hacer? 1 Pagar 2 Consultar']);
    expect(session).toMatchObject({ state: 'waitingReply', stepId: 'ask' });
    expect(effects).toContainEqual({ kind: 'setTimer', stepId: 'ask', minutes: 5 });
  });

  it('refuses to start a flow without that kind of entry (a call flow is not pushed)', () => {
    const turn = advance(menuFlow(), newSession(), { kind: 'start', entry: 'initialPush' });
    expect(turn.refused).toBe('noEntry');
  });

  it('a matched answer leaves by its response, keeps the label and reaches the final step', () => {
    const { session, effects } = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: 'consultar' }]);
    expect(session).toMatchObject({ state: 'completed', stepId: 'done', vars: { opcion: 'Consultar' } });
    expect(effects).toContainEqual({ kind: 'cancelTimer' });
    expect(counts(effects)).toEqual(['start:entered', 'ask:entered', 'ask:answered', 'ask:matched', 'done:entered']);
  });

  it("an answer that matches nothing as written chooses what the training file says it means (the first meaning that is a response here); the words as written still win", () => {
    const trained = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: 'me gustaría ver lo que debo', meant: ['Reembolso', 'saldo'] }]);
    expect(trained.session).toMatchObject({ state: 'completed', stepId: 'done', vars: { opcion: 'Consultar' } });
    expect(counts(trained.effects)).toContain('ask:matched');
    // No meaning the step offers: not matched, asked again.
    const unknown = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: 'me gustaría ver lo que debo', meant: ['Reembolso'] }]);
    expect(unknown.session).toMatchObject({ state: 'waitingReply', stepId: 'ask', retries: 1 });
    // "pagar" as written is Pagar whatever the file says.
    expect(run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: 'pagar', meant: ['Consultar'] }]).session.vars.opcion).toBe('Pagar');
  });

  it('obligatory match retries with the non-match message, then leaves by noMatch', () => {
    const { session, effects } = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: 'x' }, { kind: 'messageIn', text: 'y' }, { kind: 'messageIn', text: 'z' }]);
    expect(sends(effects).filter((t) => t === 'No entendí.')).toHaveLength(2);
    expect(session).toMatchObject({ state: 'completed', stepId: 'bye' });
    expect(counts(effects).filter((c) => c === 'ask:retried')).toHaveLength(2);
  });

  it('goToStep leaves by noMatch at once', () => {
    const flow = menuFlow();
    flow.steps[1].settings.noMatch = 'goToStep';
    expect(run(flow, [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: 'x' }]).session.stepId).toBe('bye');
  });

  it('no reply: resends the text each time the timer fires, then leaves by timeout, counted as abandoned', () => {
    const { session, effects } = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'noReply' }, { kind: 'noReply' }, { kind: 'noReply' }]);
    expect(sends(effects).filter((t) => t.startsWith('¿Qué'))).toHaveLength(3);
    expect(counts(effects)).toContain('ask:timedOut');
    expect(session).toMatchObject({ state: 'abandoned', stepId: 'bye' });
  });

  it('an integration: calls with the variables, keeps the value at its path on the expected code, else fails', () => {
    const started = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: '1' }]);
    expect(started.session).toMatchObject({ state: 'waitingIntegration', stepId: 'api' });
    expect(started.effects).toContainEqual({ kind: 'http', stepId: 'api', method: 'GET', url: 'https://example.co/saldo?o=Pagar', contentType: 'application/json', body: null, timeoutSeconds: 10 });
    const ok = advance(menuFlow(), started.session, { kind: 'integrationAnswer', status: 200, body: { data: { balance: 12500 } } });
    expect(ok.session).toMatchObject({ state: 'completed', stepId: 'done', vars: { saldo: '12500' } });
    expect(sends(ok.effects)).toEqual(['Tu saldo: 12500']);
    const wrong = advance(menuFlow(), started.session, { kind: 'integrationAnswer', status: 500, body: null });
    expect(wrong.session.stepId).toBe('bye');
    expect(counts(wrong.effects)).toContain('api:integrationFailed');
    expect(advance(menuFlow(), started.session, { kind: 'integrationFailed', reason: 'timeout' }).session.stepId).toBe('bye');
  });

  it('sendLock keeps a free answer that fits its expression, asks again when it does not', () => {
    const flow: FlowDefinition = {
      steps: [step('p', 'initialPush', { text: 'Hola' }), step('doc', 'sendLock', { text: 'Tu cédula:', pattern: '^\\d{6,10}$', nonMatchMessage: 'Solo números.', maxRetries: 1, waitMinutes: 10, assignTo: 'cedula' }), step('f', 'end', { text: 'Gracias {{cedula}}' })],
      edges: [{ from: 'p', output: 'next', to: 'doc' }, { from: 'doc', output: 'next', to: 'f' }, { from: 'doc', output: 'noMatch', to: 'f' }, { from: 'doc', output: 'timeout', to: 'f' }],
    };
    expect(validateFlow(flow)).toEqual([]);
    const { session, effects } = run(flow, [{ kind: 'start', entry: 'initialPush' }, { kind: 'messageIn', text: 'abc' }, { kind: 'messageIn', text: '1020304050' }]);
    expect(sends(effects)).toEqual(['Hola', 'Tu cédula:', 'Solo números.', 'Tu cédula:', 'Gracias 1020304050']);
    expect(session).toMatchObject({ state: 'completed', vars: { cedula: '1020304050' } });
  });

  it('smx writes to another number; conditional branches on a variable', () => {
    const flow: FlowDefinition = {
      steps: [
        step('p', 'initialPush'), step('c', 'conditional', { variable: 'monto', operator: 'greater', value: '1000000' }),
        step('alert', 'smx', { to: '{{gerente}}', text: 'Pago grande de {{monto}}' }), step('f', 'end'),
      ],
      edges: [{ from: 'p', output: 'next', to: 'c' }, { from: 'c', output: 'yes', to: 'alert' }, { from: 'c', output: 'no', to: 'f' }, { from: 'alert', output: 'next', to: 'f' }],
    };
    expect(validateFlow(flow)).toEqual([]);
    const big = advance(flow, newSession(), { kind: 'start', entry: 'initialPush', vars: { monto: '2500000', gerente: '+573001234567' } });
    expect(big.effects).toContainEqual({ kind: 'sendSms', stepId: 'alert', to: '+573001234567', text: 'Pago grande de 2500000' });
    expect(big.session.state).toBe('completed');
    const small = advance(flow, newSession(), { kind: 'start', entry: 'initialPush', vars: { monto: '900' } });
    expect(small.effects.some((e) => e.kind === 'sendSms')).toBe(false);
  });

  it('a loop of steps that never wait ends the conversation instead of spinning', () => {
    const flow: FlowDefinition = {
      steps: [step('p', 'initialPush'), step('a', 'conditional', { variable: 'x', operator: 'present' }), step('b', 'conditional', { variable: 'x', operator: 'present' })],
      edges: [{ from: 'p', output: 'next', to: 'a' }, { from: 'a', output: 'yes', to: 'b' }, { from: 'a', output: 'no', to: 'b' }, { from: 'b', output: 'yes', to: 'a' }, { from: 'b', output: 'no', to: 'a' }],
    };
    const turn = advance(flow, newSession(), { kind: 'start', entry: 'initialPush' });
    expect(turn.session.state).toBe('abandoned');
    expect(counts(turn.effects).length).toBeLessThanOrEqual(MAX_HOPS + 1);
  });

  it('refuses events to an ended conversation and replies while it waits for an integration', () => {
    const done = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: '2' }]).session;
    expect(advance(menuFlow(), done, { kind: 'messageIn', text: 'hola' }).refused).toBe('ended');
    const calling = run(menuFlow(), [{ kind: 'start', entry: 'initialCall' }, { kind: 'messageIn', text: '1' }]).session;
    expect(advance(menuFlow(), calling, { kind: 'messageIn', text: 'hola' }).refused).toBe('notWaiting');
    expect(advance(menuFlow(), calling, { kind: 'noReply' }).refused).toBe('notWaiting');
  });
});


/** A random flow that the validator accepts: random steps, every output wired to a random step. */
function randomFlow(rnd: SeededRandom): FlowDefinition {
  const n = 2 + rnd.int(8);
  const steps = [step('s0', rnd.pick(['initialPush', 'initialCall'] as const), { text: 'hola' })];
  for (let i = 1; i <= n; i++) {
    const type = rnd.pick(['send', 'send', 'sendLock', 'integration', 'smx', 'conditional'] as const);
    const settings = {
      send: rnd.int(3) ? { text: 'q', responses: [{ id: 'a', label: 'A', keywords: ['uno'] }, { id: 'b', label: 'B', keywords: ['dos'] }], obligatoryMatch: rnd.int(2) === 0, noMatch: rnd.pick(['retry', 'goToStep'] as const), maxRetries: 1 + rnd.int(2), waitMinutes: 1 + rnd.int(5) } : { text: 'info' },
      sendLock: { text: 'dato', assignTo: 'v', maxRetries: 1 + rnd.int(2), waitMinutes: 3, ...(rnd.int(2) ? { pattern: '^\\d+$' } : {}) },
      integration: { method: 'GET' as const, url: 'https://x.co', assignTo: 'r', accessPath: '$.a' },
      smx: { to: '+573001234567', text: 'alerta' },
      conditional: { variable: 'v', operator: 'present' as const },
    }[type];
    steps.push(step(`s${i}`, type, settings));
  }
  // One final step, last: the chain of first outputs reaches every step.
  steps.push(step(`s${n + 1}`, 'end', { text: 'fin' }));
  const flow: FlowDefinition = { steps, edges: [] };
  // Wire every output: the first to the next step (so every step is reached), the others anywhere.
  const ids = steps.map((s) => s.id);
  for (const [i, s] of steps.entries()) {
    const outputs = stepKinds[s.type].outputs(s.settings);
    outputs.forEach((output, k) => flow.edges.push({ from: s.id, output, to: k === 0 && i + 1 < ids.length ? ids[i + 1] : rnd.pick(ids.slice(1).filter((id) => id !== s.id)) ?? ids[1] }));
  }
  return flow;
}

describe('the runtime never strands a conversation', () => {
  it('after every event a session that has not ended waits for a reply with its timer set, or for an integration', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const flow = randomFlow(rnd);
      expect(validateFlow(flow).filter((p) => p.rule !== 'selfLoop'), `seed ${seed}: the generated flow is valid`).toEqual([]);
      const entry = flow.steps[0].type as 'initialPush' | 'initialCall';
      let turn = advance(flow, newSession(), { kind: 'start', entry });
      let timer = turn.effects.some((e) => e.kind === 'setTimer');
      for (let i = 0; i < 30; i++) {
        const s = turn.session;
        if (s.state === 'completed' || s.state === 'abandoned') break;
        if (s.state === 'waitingReply') expect(timer, `seed ${seed}: waits for a reply without a timer`).toBe(true);
        const event: FlowEvent = s.state === 'waitingReply'
          ? rnd.pick([{ kind: 'noReply' }, { kind: 'messageIn', text: rnd.pick(['uno', 'dos', 'x', '123', '']) }] as FlowEvent[])
          : rnd.pick([{ kind: 'integrationAnswer', status: rnd.pick([200, 500]), body: { a: 1 } }, { kind: 'integrationFailed', reason: 'timeout' }] as FlowEvent[]);
        turn = advance(flow, s, event);
        expect(turn.refused, `seed ${seed}: a waiting session refused ${event.kind}`).toBeUndefined();
        const set = turn.effects.some((e) => e.kind === 'setTimer');
        const cancelled = turn.effects.some((e) => e.kind === 'cancelTimer');
        timer = set || (timer && !cancelled && event.kind !== 'noReply');
      }
    }
  });
});
