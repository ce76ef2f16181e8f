// Certificates (/Reports/Certificate): what the platform states about a company's
// messages (to one number, of one campaign) or its block list, signed with the platform's Ed25519
// key. `statement` is the canonical JSON the signature covers, kept as text byte for byte (jsonb
// would reorder it); `sha256` is its hash and `signature` the key's signature of that hash. The
// public keys that ever signed stay in `certificate_keys`, so a certificate still verifies after
// the master key is rotated.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table certificate_keys (
       key_id text primary key,
       public_key text not null,
       created_at timestamptz not null)`,
    `create table certificates (
       id text primary key,
       company_id integer not null references companies(id),
       kind text not null,
       subject text not null,
       statement text not null,
       sha256 text not null,
       signature text not null,
       key_id text not null references certificate_keys(key_id),
       created_by integer references users(id) on delete set null,
       created_at timestamptz not null)`,
    'create index certificates_company_idx on certificates (company_id, created_at desc)',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists certificates').execute(db);
  await sql.raw('drop table if exists certificate_keys').execute(db);
}
