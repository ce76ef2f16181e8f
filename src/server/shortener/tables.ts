// The shortener's tables (migration 0310_shortener) as Kysely sees them. Kept here, beside the
// code that owns them: handlers use `shortenerDb(deps.db)`.
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type BigId = ColumnType<number | string, never, never>;
type BigRef = ColumnType<number | string, number | string, number | string>;

export interface ShortLinksTable {
  id: BigId;
  company_id: number;
  code: string;
  url: string | null;
  alias: Generated<boolean>;
  parent_id: BigRef | null;
  campaign_id: number | null;
  phone: string | null;
  tags: ColumnType<string[], string, string>;
  batch: string | null;
  expires_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface ShortLinkClicksTable {
  company_id: number;
  link_id: BigRef;
  root_id: BigRef;
  campaign_id: number | null;
  at: Timestamp;
  bot: boolean;
  device: string;
  referrer: string | null;
  visitor: string;
}

export interface ShortenerTables {
  short_links: ShortLinksTable;
  short_link_clicks: ShortLinkClicksTable;
}

export type ShortenerDatabase = Database & ShortenerTables;

export const shortenerDb = <T>(db: Kysely<T>) => db as unknown as Kysely<ShortenerDatabase>;
