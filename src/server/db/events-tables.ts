// Row types of the events tables (migration 0330_events): the company's events and the
// idempotency keys of the public API. The server's Database extends them.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type JsonDefault<T> = ColumnType<T, string | undefined, string>;
type BigCount = ColumnType<number | string, number | string | undefined, number | string>;

export interface EventsTable {
  id: Generated<number>;
  company_id: number;
  key: string;
  name: string;
  channel_id: number | null;
  purpose: string;
  content: string | null;
  template_name: string | null;
  template_language: string | null;
  template_parameters: JsonDefault<string[]>;
  variables: JsonDefault<string[]>;
  enabled: Generated<boolean>;
  fired_count: BigCount;
  last_fired_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdempotencyKeysTable {
  company_id: number;
  key: string;
  scope: string;
  request_hash: string;
  message_ids: JsonDefault<number[]>;
  created_at: Timestamp;
}

export interface EventsDatabase {
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
}
