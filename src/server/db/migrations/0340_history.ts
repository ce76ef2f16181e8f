// The sending history (/Campaigns/history, GET /v1/deployments/history) finds a company's
// deployments by their day: when they started, else when they are scheduled, else when they were
// made. This index answers that range per company without reading its other deployments; the
// messages of the matching deployments are then aggregated through messages_deployment_idx.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('create index deployments_day_idx on deployments (company_id, (coalesce(started_at, scheduled_at, created_at)), id)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists deployments_day_idx').execute(db);
}
