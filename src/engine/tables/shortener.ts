// Row types of the shortener's tables (migration 0310_shortener). Composed into the one Database
// in src/engine/database.ts.
import type { ColumnType, Generated } from 'kysely';
import type { BigId, BigRef, Timestamp } from './columns.ts';

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
