// A published flow version is never changed (a new publication is a new version), so each engine
// keeps the ones it has read: a turn costs no read of the flow after the first.
import type { Kysely, Transaction } from 'kysely';
import type { FlowDefinition } from '../../generated/types.gen.ts';
import type { Database } from '../database.ts';
import { jsonValue } from '../tables/columns.ts';

const KEEP = 500;

export type FlowVersions = (db: Kysely<Database> | Transaction<Database>, flowId: number, version: number) => Promise<FlowDefinition | null>;

/** A reader of published versions with its own memory (one per engine: one database). */
export function flowVersions(): FlowVersions {
  const kept = new Map<string, FlowDefinition>();
  return async (db, flowId, version) => {
    const key = `${flowId}:${version}`;
    const hit = kept.get(key);
    if (hit) return hit;
    const row = await db.selectFrom('flow_versions').select('definition').where('flow_id', '=', flowId).where('version', '=', version).executeTakeFirst();
    if (!row) return null;
    const definition = jsonValue<FlowDefinition>(row.definition);
    if (kept.size >= KEEP) kept.delete(kept.keys().next().value!);
    kept.set(key, definition);
    return definition;
  };
}
