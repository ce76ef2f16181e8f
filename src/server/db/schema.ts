// Row types of every table, as Kysely sees them. Column names are snake_case in SQL and here;
// handlers map rows to the camelCase API entities of schemas/entities.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

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
  created_at: CreatedAt;
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

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  password_history: PasswordHistoryTable;
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
}

export type UserRow = Selectable<UsersTable>;
export type CompanyRow = Selectable<CompaniesTable>;
export type NewUser = Insertable<UsersTable>;
