// Sign-in failures for e-mails that have no account: an unknown e-mail answers exactly
// as a real account does (the captcha after captchaAfterFailures failures, the lock after
// maxFailedLogins), so the answers do not reveal who has an account. Keyed by a digest of the
// normalised e-mail: the addresses people mistype are not kept.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table signin_attempts (
    email_digest text primary key,
    failures integer not null default 0,
    locked_until timestamptz,
    updated_at timestamptz not null
  )`).execute(db);
  await sql.raw('create index signin_attempts_updated_idx on signin_attempts (updated_at)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists signin_attempts').execute(db);
}
