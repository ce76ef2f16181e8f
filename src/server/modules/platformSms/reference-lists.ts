// The reference lists the SMS platform and the report center both answer: Colombia's operators
// and spec 4's SMS status codes (migration 0203 fills both tables).
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import type { SmsOperator, SmsState, SmsStateItem } from '../../../generated/types.gen.ts';

export async function listOperators(db: Kysely<Database>): Promise<SmsOperator[]> {
  const rows = await db.selectFrom('sms_operators').select(['id', 'name', 'kind']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind as SmsOperator['kind'] }));
}

export async function listMessageStates(db: Kysely<Database>): Promise<SmsStateItem[]> {
  const rows = await db.selectFrom('sms_states').select(['id', 'name']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id as SmsState, name: r.name }));
}
