// The reason a message shows beside its state: overflow says when it is tried again, unauthorized
// names the provider's code; the failing states are one list wherever failures are counted.
import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../src/engine/lifecycle/message-reason.ts';
import { outcomeOf, statesOfOutcome } from '../../src/engine/lifecycle/message-states.ts';

const at = new Date('2026-12-01T15:00:00.000Z');

describe('reasonOf', () => {
  it('an overflowed message waits with 70 and the instant it goes again', () => {
    expect(reasonOf({ state: 'overflow', status_code: 70, error_code: null, held_reason: null, not_before: at }, 24))
      .toEqual({ kind: 'overflow', code: '70', hours: null, until: at.toISOString() });
  });

  it('an unauthorized message names the provider\'s code, or its status code without one', () => {
    expect(reasonOf({ state: 'unauthorized', status_code: 92, error_code: 'ESME_RINVSRCADR', held_reason: null, not_before: at }, 24))
      .toEqual({ kind: 'unauthorized', code: 'ESME_RINVSRCADR', hours: null, until: null });
    expect(reasonOf({ state: 'unauthorized', status_code: 92, error_code: null, held_reason: null, not_before: at }, 24)?.code).toBe('92');
  });
});

describe('message outcomes', () => {
  it('unauthorized fails, overflow is still pending, and received is never an outgoing state', () => {
    expect(outcomeOf('unauthorized')).toBe('failed');
    expect(outcomeOf('overflow')).toBe('pending');
    expect(statesOfOutcome('failed').sort()).toEqual(['failed', 'timeout', 'unauthorized', 'undefined']);
    expect(statesOfOutcome('delivered')).not.toContain('received');
  });
});
