// Row types of the events tables (migration 0330_events): the company's events and the
// idempotency keys of the public API. Composed into the one Database in src/engine/database.ts.
import type { Generated } from 'kysely';
import type { BigCount, JsonDefault, Timestamp } from './columns.ts';

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

export interface EventsTables {
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
}
