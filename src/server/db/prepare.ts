// What every start does before serving: migrations, then the system roles' grants.
import type { DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { syncSystemRoles } from './system-roles.ts';

export async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  await migrateToLatest(handle.db, handle.schema);
  await syncSystemRoles(handle.db);
}
