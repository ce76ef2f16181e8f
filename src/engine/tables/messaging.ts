// Row types of the messaging engine's tables (migration src/server/db/migrations/0300_messaging):
// credits, campaigns and their recipients, deployments, messages and their events, parts and
// receipts, workers, inbound messages, status callbacks. Composed into the one Database in
// src/engine/database.ts.
import type { ColumnType, Generated } from 'kysely';
import type { BigCount, BigId, BigRef, Json, JsonDefault, Timestamp } from './columns.ts';

export interface CompanyCreditsTable {
  company_id: number;
  balance: BigCount;
  reserved: BigCount;
  updated_at: Timestamp;
}

export interface CreditLedgerTable {
  id: BigId;
  company_id: number;
  kind: string;
  amount: BigRef;
  balance_after: BigRef;
  reserved_after: BigRef;
  deployment_id: BigRef | null;
  message_count: Generated<number>;
  reference: string | null;
  created_by: number | null;
  created_at: Timestamp;
}

export interface MessagingSettingsTable {
  company_id: number;
  send_window: Json<unknown> | null;
  duplicate_window_hours: Generated<number>;
  callback_url: string | null;
  callback_secret: string | null;
  sms_fallback_channel_id: number | null;
  /** What its messages are checked for before they leave (enum fraud-check; migration 0510). */
  fraud_check: Generated<string>;
  updated_at: Timestamp;
}

export interface CampaignsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  kind: string;
  purpose: Generated<string>;
  channel_id: number | null;
  content: Generated<string>;
  template: Json<unknown> | null;
  variables: JsonDefault<string[]>;
  /** The approved WhatsApp template the campaign sends (migration 0380), and which file column fills each parameter. */
  template_id: number | null;
  template_mapping: JsonDefault<Record<string, string>>;
  scheduled_at: Timestamp | null;
  recurrence: Json<unknown> | null;
  label: Generated<string>;
  edit_lock: Generated<string>;
  lock_requested_by: number | null;
  max_complete_interactions: number | null;
  /** A published flow the launch starts for each recipient (migration 0493): its initialPush step follows the campaign's message. */
  flow_id: Generated<number | null>;
  recipients_file_id: number | null;
  next_run_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RecipientFilesTable {
  id: Generated<number>;
  company_id: number;
  campaign_id: number | null;
  file_name: string;
  bytes: BigRef;
  state: string;
  headers: JsonDefault<string[]>;
  summary: JsonDefault<Record<string, unknown>>;
  error: string | null;
  created_by: number | null;
  created_at: Timestamp;
}

export interface RecipientRowsTable {
  file_id: number;
  row_no: number;
  phone: string | null;
  variables: JsonDefault<Record<string, string>>;
  result: string;
  send: boolean;
  problems: JsonDefault<{ code: string; column?: string }[]>;
  /** The phone cell as written, for rows that are not a plain pass (null for those). */
  entered: string | null;
}

export interface DeploymentsTable {
  id: BigId;
  company_id: number;
  campaign_id: number | null;
  channel_id: number;
  state: string;
  purpose: string;
  scheduled_at: Timestamp | null;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  total: Generated<number>;
  reserved_credits: BigCount;
  /** Messages written so far while 'preparing': progress of its launch job. */
  enqueued: Generated<number>;
  /** Why its launch stopped mid-way (an error code of config/errors.yaml), else null. */
  stop_reason: string | null;
  /** The run whose messages that did not arrive this one sends again (migration 0506), else null. */
  resend_of: ColumnType<number | string | null, number | null | undefined, number | null>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MessagesTable {
  id: BigId;
  company_id: number;
  deployment_id: BigRef | null;
  channel_id: number;
  source: string;
  purpose: string;
  to_number: string;
  body: string | null;
  template: Json<unknown> | null;
  parts: Generated<number>;
  encoding: string | null;
  cost: number;
  state: string;
  status_code: number;
  delivery_status: string | null;
  error_code: string | null;
  not_before: Timestamp;
  held_reason: string | null;
  attempts: Generated<number>;
  worker_id: string | null;
  claimed_at: Timestamp | null;
  in_doubt_since: Timestamp | null;
  provider_message_id: string | null;
  client_ref: string | null;
  api_credential_id: string | null;
  /** The event that created it (migration 0330_events); null for campaigns and POST /v1/messages. */
  event_id: number | null;
  /** The campaign a test send was for (migration 0370_campaign-tests); tests have no deployment. */
  test_campaign_id: Generated<number | null>;
  billed: Generated<boolean>;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  done_at: Timestamp | null;
  updated_at: Timestamp;
  /** The serving network a delivery receipt named (MCC+MNC, '732101'); null until one does (src/core/co-operators.ts). */
  network: Generated<string | null>;
  /** The area (branch office) of the team member who sent it, when it was created; null without one. A snapshot, not a link: an area deleted later leaves its id. */
  area_id: Generated<number | null>;
  /** The message this one must follow (a conversation's replies, migration 0492): claimed once that one left the queue. */
  after_message_id: Generated<number | string | null>;
  /** Queued with its credits still to reserve: the claim reserves them (a conversation's replies, migration 0496). */
  unpaid: Generated<boolean>;
}

export interface MessageEventsTable {
  id: BigId;
  message_id: BigRef;
  at: Timestamp;
  state: string;
  delivery_status: string | null;
  status_code: number | null;
  detail: string | null;
}

export interface OrphanReceiptsTable {
  id: BigId;
  channel_id: number;
  provider_message_id: string | null;
  delivery_status: string;
  error_code: string | null;
  destination: string | null;
  user_reference: number | null;
  at: Timestamp;
  received_at: Timestamp;
  network: string | null;
}

/** How far a channel's receipts have come (in-doubt recovery): the latest claim time among the messages they named, and when the last came. */
export interface ReceiptProgressTable {
  channel_id: number;
  through: Timestamp | null;
  received_at: Timestamp;
}

/** One part of a long SMS: its SMSC id, and its final status once its receipt came. */
export interface MessagePartsTable {
  channel_id: number;
  provider_part_id: string;
  message_id: BigRef;
  delivery_status: string | null;
  error_code: string | null;
  at: Timestamp | null;
}

export interface EngineWorkersTable {
  id: string;
  pid: number | null;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
}

export interface InboundMessagesTable {
  id: BigId;
  company_id: number;
  channel_id: number;
  from_number: string;
  to_address: string;
  body: string;
  keyword: string | null;
  action: string | null;
  provider_message_id: string;
  received_at: Timestamp;
}

export interface WebhookReceiptsSeenTable { dedupe_key: string; received_at: Timestamp }

export interface StatusCallbacksTable {
  id: BigId;
  company_id: number;
  message_id: BigRef;
  url: string;
  payload: Json<unknown>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  delivered_at: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
}

/** Durable work of the engine (src/engine/jobs): one row per job, its cursor moved with each chunk. */
export interface JobsTable {
  id: BigId;
  kind: string;
  payload: Json<unknown>;
  state: Generated<string>;
  cursor: BigCount;
  done: Generated<number>;
  claimed_by: string | null;
  lease_until: Timestamp | null;
  /** A step put off (an integration call's back-off): nobody claims the job before this. */
  not_before: Generated<Date | null>;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A requested report's file (migration 0440): enlist → ready | error, written by a reportFile job. */
export interface ReportFilesTable {
  id: BigId;
  company_id: number;
  report_type_id: number;
  application_id: number;
  requested_by: number | null;
  params: Json<unknown>;
  format: string;
  state: Generated<string>;
  rows: BigCount;
  bytes: BigCount;
  storage_key: string;
  error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  schedule_id: Generated<number | null>;
  mailed_at: Generated<Timestamp | null>;
  /** The language its words are written in (migration 0497; src/server/i18n/document-words.ts). */
  language: Generated<string>;
  /** A report screen's file (report type 3): when a process took it to write (migration 0504). */
  claimed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ReportSchedulesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  report_type_id: number;
  account_ids: Json<number[]>;
  frequency: string;
  day: number | null;
  hour: number;
  emails: Json<string[]>;
  enabled: Generated<boolean>;
  next_run_at: Timestamp | null;
  last_run_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The language of its files and e-mails: whoever saved it last (migration 0497). */
  language: Generated<string>;
  /** A report screen's schedule (migration 0504): the screen's id and the body its filters made. */
  screen: Generated<string | null>;
  payload: ColumnType<unknown, string | null | undefined, string | null>;
}

/** A report rollup row (migration 0410; the rule is src/engine/lifecycle/rollups.ts): one hour's key and its sums. */
export interface MessageRollupRow {
  bucket: Timestamp;
  company_id: number;
  channel_id: number;
  /** 0 for messages of no deployment (API, events, tests). */
  deployment_id: BigRef;
  purpose: string;
  source: string;
  state: string;
  status_code: number;
  messages: BigRef;
  parts: BigRef;
  credits: BigRef;
  latency_ms: BigRef;
  latency_count: BigRef;
  latency_3s: BigRef;
  latency_5s: BigRef;
  latency_60s: BigRef;
  latency_over: BigRef;
}

export interface CertificateKeysTable { key_id: string; public_key: string; created_at: Timestamp }

export interface CertificatesTable {
  id: string;
  company_id: number;
  kind: string;
  subject: string;
  statement: string;
  sha256: string;
  signature: string;
  key_id: string;
  created_by: number | null;
  created_at: Timestamp;
  /** The signed PDF as issued (null for a certificate issued before PDFs were signed: made on its first download). */
  pdf: Buffer | null;
}

export interface MessagingTables {
  certificate_keys: CertificateKeysTable;
  certificates: CertificatesTable;
  jobs: JobsTable;
  report_files: ReportFilesTable;
  report_schedules: ReportSchedulesTable;
  company_credits: CompanyCreditsTable;
  credit_ledger: CreditLedgerTable;
  messaging_settings: MessagingSettingsTable;
  campaigns: CampaignsTable;
  recipient_files: RecipientFilesTable;
  recipient_rows: RecipientRowsTable;
  deployments: DeploymentsTable;
  messages: MessagesTable;
  message_events: MessageEventsTable;
  orphan_receipts: OrphanReceiptsTable;
  receipt_progress: ReceiptProgressTable;
  message_parts: MessagePartsTable;
  engine_workers: EngineWorkersTable;
  inbound_messages: InboundMessagesTable;
  webhook_receipts_seen: WebhookReceiptsSeenTable;
  status_callbacks: StatusCallbacksTable;
  message_rollup_totals: MessageRollupRow;
  message_rollup_deltas: MessageRollupRow;
  message_rollup_days: MessageRollupRow;
  /** The view reports read: totals and deltas, to be summed by the key a report wants. */
  message_rollups: MessageRollupRow;
  /** The same by Bogotá day (bucket: the day's first instant): day totals and the deltas by day. */
  message_rollups_daily: MessageRollupRow;
}
