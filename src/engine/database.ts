// The one database (ARCHITECTURE 4): every table's row type, composed once. The row types are
// split by domain under ./tables/; the server, the engine and the tests all use this Database
// (the engine may import only src/core and src/generated, so it lives here, not in src/server).
import type { Insertable, Selectable } from 'kysely';
import type { CompanyTables, CompaniesTable, UsersTable } from './tables/company.ts';
import type { ConversationTables } from './tables/conversations.ts';
import type { EventsTables } from './tables/events.ts';
import type { MessagingTables } from './tables/messaging.ts';
import type { PaymentTables } from './tables/payments.ts';
import type { ShortenerTables } from './tables/shortener.ts';
import type { TemplatesTables } from './tables/templates.ts';

export type * from './tables/company.ts';
export type * from './tables/conversations.ts';
export type * from './tables/events.ts';
export type * from './tables/messaging.ts';
export type * from './tables/payments.ts';
export type * from './tables/shortener.ts';
export type * from './tables/templates.ts';

export interface Database extends CompanyTables, ConversationTables, MessagingTables, EventsTables, TemplatesTables, ShortenerTables, PaymentTables {}

export type UserRow = Selectable<UsersTable>;
export type CompanyRow = Selectable<CompaniesTable>;
export type NewUser = Insertable<UsersTable>;
