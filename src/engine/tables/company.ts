// Row types of the company's own tables (identity, roles, areas, files, geography, platform
// clients, audit, channels, API credentials and settings, block list, SMS accounts), as Kysely sees
// them. Column names are snake_case in SQL and here; handlers map rows to the camelCase API
// entities of schemas/entities. Composed into the one Database in src/engine/database.ts.
import type { ColumnType, Generated } from 'kysely';
import type { BigRef, CreatedAt, Timestamp } from './columns.ts';

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  nit: string;
  state: string;
  plan_type: string;
  picture_file: string | null;
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  address: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: ColumnType<string | null, string | null | undefined, string | null>;
  region_code: ColumnType<string | null, string | null | undefined, string | null>;
  city_code: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  parent_id: number | null;
  full_name: string;
  email: string;
  phone: string | null;
  document_type: string | null;
  document_id: string | null;
  address: string | null;
  state: string;
  otp_method: string;
  password_hash: string;
  password_changed_at: Timestamp;
  failed_logins: Generated<number>;
  locked_until: Timestamp | null;
  profile_pic_file: string | null;
  area_id: ColumnType<number | null, number | null | undefined, number | null>;
  cost_center_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** A service account (the company's API user), not a person: never listed on the team. */
  service: Generated<boolean>;
  created_at: CreatedAt;
}

/** Sign-in failures of e-mails without an account (migration 0395): they answer as real accounts do. */
/** Abuse throttling's shared counters: one fixed window per key. */
export interface ThrottleCountersTable {
  key: string;
  hits: number;
  window_ends: Timestamp;
}

export interface SigninAttemptsTable {
  email_digest: string;
  failures: number;
  updated_at: Timestamp;
}

export interface SigninLocksTable {
  email_digest: string;
  address: string;
  failures: number;
  locked_until: Timestamp | null;
  updated_at: Timestamp;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  created_at: CreatedAt;
}

export interface PermissionGrantJson { id: number; actions: string[] }

export interface RolesTable {
  id: Generated<number>;
  /** null for the system roles shared by every company. */
  company_id: number | null;
  name: string;
  read_only: boolean;
  permissions: ColumnType<PermissionGrantJson[], string, string>;
  /** Which users the role's holders see: all | meAndDependents | onlyMe (enum user-scope). */
  scope: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface OtpsTable {
  id: Generated<number>;
  user_id: number;
  purpose: string;
  channel: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: Generated<number>;
  consumed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AreasTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  picture_file: string | null;
  created_at: CreatedAt;
}

export interface NotificationsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  title: string;
  message: string;
  visible: Generated<boolean>;
  created_at: Timestamp;
}

export interface FilesTable {
  id: string;
  company_id: number | null;
  content_type: string;
  size: number;
  bytes: Uint8Array;
  created_at: CreatedAt;
}

export interface SandboxOutboxTable {
  id: Generated<number>;
  /** The company the message was sent for (null: none, e.g. a platform notice). */
  company_id: ColumnType<number | null, number | null | undefined, number | null>;
  channel: string;
  to_address: string;
  subject: string;
  body: string;
  created_at: Timestamp;
}

export interface CountriesTable { code: string; name: string }
export interface RegionsTable { country_code: string; code: string; name: string }
export interface CitiesTable { country_code: string; region_code: string; code: string; name: string }

export interface AppMetaTable { key: string; value: string }

export interface CostCentersTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  code: string;
  created_at: CreatedAt;
}

export interface PlatformClientsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  nit: string;
  created_at: CreatedAt;
}

export interface PlatformResponsiblesTable {
  id: Generated<number>;
  company_id: number;
  platform_client_id: number;
  name: string;
  email: string | null;
  created_at: CreatedAt;
}

export interface AssociationsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  platform_client_id: number;
  platform_responsible_id: number;
  name: string;
  created_at: CreatedAt;
}

export interface AuditLogTable {
  /** bigint: the pg driver reads it as a string. */
  id: ColumnType<string, never, never>;
  company_id: number;
  user_id: number | null;
  user_email: string | null;
  ip: string | null;
  method: string;
  path: string;
  operation_id: string | null;
  component_id: number | null;
  component_name: string | null;
  component_action: string | null;
  status: number;
  created_at: Timestamp;
}

// Channels, API credentials, block list and the SMS platform (migrations 0200-0203).

export interface CompanyChannelTypesTable { company_id: number; platform: string }

/** An account SID as stored: the public id and its sealed secret. */
export interface StoredAccountSid { sid: string; secret: string }

/**
 * A channel's credentials as stored: each secret field its channel type declares (the API's
 * field names: authorizationToken, pageAccessToken, clientToken, privateKey…) sealed
 * (security/secrets.ts, bound by security/sealing-contexts.ts channelCredentialContext), and the
 * account SIDs with their sealed secrets. One document for every channel type.
 */
export interface StoredCredentials { secrets: Partial<Record<string, string>>; accountSids: StoredAccountSid[] }

export interface ChannelsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  platform: string;
  type: string;
  sender: string | null;
  short_code: string | null;
  tags: ColumnType<string[], string, string>;
  keywords: ColumnType<string[], string, string>;
  priority: number;
  /** The credentials towards the provider, each value sealed (StoredCredentials). */
  credentials: ColumnType<StoredCredentials, string | undefined, string>;
  /** HMAC fingerprint of the page access token: uniqueness without comparing secrets. */
  page_access_token_fp: string | null;
  facebook_page_id: string | null;
  client_email: string | null;
  callback_url: string | null;
  /** Non-secret connection settings (SMPP host/port/system id/TPS, Graph phone-number id, RBM agent…). */
  connection: ColumnType<Record<string, unknown>, string | undefined, string>;
  enabled: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ShortCodeLeasesTable { short_code: string; company_id: number }
export interface ChannelKeywordsTable { short_code: string; keyword: string; channel_id: number }

export interface ChannelMessagesTable {
  id: Generated<number>;
  company_id: number;
  channel_id: number;
  to_number: string;
  body: string;
  status: string;
  provider_message_id: string | null;
  error: string | null;
  is_test: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiCredentialsTable {
  id: string;
  company_id: number;
  name: string;
  secret_hash: string;
  secret_hint: string;
  created_by: number | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  replaced_by: string | null;
  /** Last use with the right secret from an address not authorised (status 96), and that address (migration 0511). */
  foreign_origin_at: Timestamp | null;
  foreign_origin_ip: string | null;
}

export interface ApiSettingsTable {
  company_id: number;
  api_user_id: number | null;
  allowed_ips: ColumnType<string[], string, string>;
  notification_email: string | null;
  ftp_host: string | null;
  ftp_port: number | null;
  ftp_user: string | null;
  ftp_directory: string | null;
  /** Sealed. */
  ftp_password: string | null;
  updated_at: Timestamp;
  /** When the FTP intake visits the folder next (null: at its next round); messaging/ftp-intake.ts. */
  ftp_next_visit_at: Timestamp | null;
  ftp_visited_at: Timestamp | null;
  /** What the last visit met when it could not read the folder (null: it could). */
  ftp_last_error: string | null;
  /** Whether the last visit logged in over TLS (null: it did not get that far). */
  ftp_encrypted: boolean | null;
}

/** A file the FTP intake met (migration 0498): one row per name, size and modification instant. */
export interface FtpImportsTable {
  id: Generated<number>;
  company_id: number;
  file_name: string;
  bytes: BigRef;
  modified_at: Timestamp | null;
  campaign_id: number | null;
  deployment_id: BigRef | null;
  /** reading → imported | refused (enums ftp-import-state). */
  state: string;
  /** The catalogue code a refusal answered. */
  code: string | null;
  detail: string | null;
  rows: Generated<number>;
  sendable: Generated<number>;
  refused: Generated<number>;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface BlockListTable {
  id: Generated<number>;
  company_id: number;
  phone: string;
  source: string;
  created_by: number | null;
  created_at: Timestamp;
  effective_at: Timestamp;
  removal_requested_at: Timestamp | null;
  removal_effective_at: Timestamp | null;
}

export interface SmsOperatorsTable { id: number; name: string; kind: string }
export interface SmsStatesTable { id: number; name: string }

export interface SmsAccountsTable {
  id: Generated<number>;
  company_id: number;
  platform_client_id: number;
  platform_responsible_id: number | null;
  name: string;
  state: string;
  quota: number;
  used: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SmsCampaignsTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  name: string;
  created_at: Timestamp;
}

/** A file the provider's SMS file processor judged for a client company's account (migration 0505). */
export interface PlatformFilesTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  /** 512 Connectin SMS, 1024 Eloqua, 2048 Responsys (enums platform-tool). */
  tool_id: number;
  file_name: string;
  /** Its judged rows (the recipients intake's); null once they are gone. */
  recipient_file_id: number | null;
  content: string | null;
  summary: ColumnType<Record<string, unknown>, string, string>;
  campaign_id: number | null;
  deployment_id: BigRef | null;
  uploaded_by: number | null;
  created_at: Timestamp;
}

/** A person's saved list of numbers and ranges (migration 0507): as written, and expanded (one per line). */
export interface NumberListsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  name: string;
  ranges: string;
  numbers: string;
  count: number;
  created_at: Timestamp;
}

/** A request to the provider from the help form (migration 0509). */
export interface HelpRequestsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  user_name: string;
  email: string;
  subject: string;
  message: string;
  created_at: Timestamp;
}

/** A file attached to a help request, kept in the file storage under `help/<company>/<id>.bin` (migration 0509). */
export interface HelpAttachmentsTable {
  id: string;
  company_id: number;
  user_id: number | null;
  /** Null until a request names it. */
  request_id: number | null;
  name: string;
  content_type: string;
  size: number;
  created_at: Timestamp;
}

export interface CompanyTables {
  companies: CompaniesTable;
  users: UsersTable;
  password_history: PasswordHistoryTable;
  signin_attempts: SigninAttemptsTable;
  signin_locks: SigninLocksTable;
  throttle_counters: ThrottleCountersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  tokens: TokensTable;
  otps: OtpsTable;
  areas: AreasTable;
  notifications: NotificationsTable;
  files: FilesTable;
  sandbox_outbox: SandboxOutboxTable;
  countries: CountriesTable;
  regions: RegionsTable;
  cities: CitiesTable;
  app_meta: AppMetaTable;
  cost_centers: CostCentersTable;
  platform_clients: PlatformClientsTable;
  platform_responsibles: PlatformResponsiblesTable;
  associations: AssociationsTable;
  audit_log: AuditLogTable;
  company_channel_types: CompanyChannelTypesTable;
  channels: ChannelsTable;
  short_code_leases: ShortCodeLeasesTable;
  channel_keywords: ChannelKeywordsTable;
  channel_messages: ChannelMessagesTable;
  api_credentials: ApiCredentialsTable;
  api_settings: ApiSettingsTable;
  ftp_imports: FtpImportsTable;
  block_list: BlockListTable;
  sms_operators: SmsOperatorsTable;
  sms_states: SmsStatesTable;
  sms_accounts: SmsAccountsTable;
  sms_campaigns: SmsCampaignsTable;
  platform_files: PlatformFilesTable;
  number_lists: NumberListsTable;
  help_requests: HelpRequestsTable;
  help_attachments: HelpAttachmentsTable;
}
