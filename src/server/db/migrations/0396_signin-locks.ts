// Sign-in locks per (account, client address): too many wrong passwords from one address lock that
// address out of that account only, so a guesser cannot lock the real owner out from elsewhere.
// The account-wide count (users.failed_logins, signin_attempts for e-mails without an account)
// now only asks for the captcha, so signin_attempts loses its lock. Keyed by a digest of the
// normalised e-mail, as signin_attempts is: the addresses people mistype are not kept.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table signin_locks (
    email_digest text not null,
    address text not null,
    failures integer not null default 0,
    locked_until timestamptz,
    updated_at timestamptz not null,
    primary key (email_digest, address)
  )`).execute(db);
  await sql.raw('create index signin_locks_updated_idx on signin_locks (updated_at)').execute(db);
  await sql.raw('alter table signin_attempts drop column locked_until').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table signin_attempts add column locked_until timestamptz').execute(db);
  await sql.raw('drop table if exists signin_locks').execute(db);
}
