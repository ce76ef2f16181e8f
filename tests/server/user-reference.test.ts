// The user_message_reference rule in TypeScript (what the SMPP adapter sends) and in SQL (what the
// receipt matching compares) give the same 16 bits for the same message id, on PGlite and on
// PostgreSQL: a mismatch would leave an echoed receipt unmatched and its in-doubt message sent again.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { userReferenceOf, userReferenceSql } from '../../src/engine/user-reference.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

const IDS = ['0', '1', '65535', '65536', '65537', '131071', '1099511627781', '9007199254740993', '9223372036854775807'];

describe('user reference', () => {
  it('is the same in SQL as in TypeScript for every message id', async () => {
    const values = sql.join(IDS.map((id) => sql`(${id}::bigint)`));
    const rows = await sql<{ id: string; ref: number }>`select t.id::text as id, ${userReferenceSql('t.id')}::int as ref from (values ${values}) as t(id)`.execute(h.db);
    expect(rows.rows.map((r) => [r.id, Number(r.ref)])).toEqual(IDS.map((id) => [id, userReferenceOf(id)]));
    expect(IDS.map(userReferenceOf)).toEqual([0, 1, 65535, 0, 1, 65535, 5, 1, 65535]);
  });

  it('hashes an id that is not a number into 16 bits', () => {
    for (const id of ['abc', 'wamid.HBgM', 'x'.repeat(500)]) {
      const ref = userReferenceOf(id);
      expect(Number.isInteger(ref) && ref >= 0 && ref < 65536).toBe(true);
    }
    expect(userReferenceOf('abc')).toBe(userReferenceOf('abc'));
  });
});
