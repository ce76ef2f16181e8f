// A conversation's replies leave in the order the flow sent them, on PGlite or PostgreSQL
// (DATABASE_URL): a message that must follow another is not claimed while that one is still queued
// or being submitted, and is claimed once its submit was answered, however many workers claim.
import { describe, expect, it } from 'vitest';
import { claimQueued, recordAccepted } from '../../src/engine/lifecycle/dispatch.ts';
import { enqueueMessages, sendAfter } from '../../src/engine/lifecycle/enqueue.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

describe('messages in order', () => {
  it('claims a reply only after the one it follows left the queue', async () => {
    const company = await h.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const channel = await h.db.selectFrom('channels').select(['id', 'platform']).where('company_id', '=', company.id).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow();
    const now = h.clock.now;
    const ids = await h.db.transaction().execute(async (trx) => {
      const sent: number[] = [];
      for (const body of ['Gracias por escribirnos.', 'Menú: 1 Saldo 2 Asesor', '¿En qué más te ayudo?']) {
        const r = await enqueueMessages(trx, {
          companyId: company.id, channel: { id: channel.id, platform: 'sms' }, purpose: 'transactional', source: 'flow',
          items: [{ to: '573001112233', body }], duplicateWindowHours: 0, heldUntil: null, now, onInsufficientCredits: 'reject',
        });
        if (sent.length) await sendAfter(trx, [{ id: r.ids[0], after: sent[sent.length - 1] }]);
        sent.push(r.ids[0]);
      }
      return sent;
    });
    // Two workers claim at once: only the first reply is theirs to send.
    const [a, b] = (await Promise.all([claimQueued(h.db, 'w1', 10, now), claimQueued(h.db, 'w2', 10, now)])).map((c) => c.rows);
    const first = [...a, ...b].filter((r) => ids.includes(Number(r.id)));
    expect(first.map((r) => Number(r.id))).toEqual([ids[0]]);
    // Still being submitted: the next one waits.
    expect((await claimQueued(h.db, 'w2', 10, now)).rows.filter((r) => ids.includes(Number(r.id)))).toEqual([]);
    // The SMSC answered: the second may go, the third still waits for it.
    const holder = a.some((r) => Number(r.id) === ids[0]) ? 'w1' : 'w2';
    await h.db.transaction().execute((trx) => recordAccepted(trx, holder, [{ row: first[0], pid: 'smsc-1' }], now));
    const second = (await claimQueued(h.db, 'w1', 10, now)).rows.filter((r) => ids.includes(Number(r.id)));
    expect(second.map((r) => Number(r.id))).toEqual([ids[1]]);
  });
});
