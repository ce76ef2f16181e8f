// Column types shared by the row types of every table (src/engine/tables/*). bigint columns come
// back as strings from pg and numbers from PGlite: read them through Number().
import type { ColumnType } from 'kysely';

/** timestamptz: read as Date, written as Date (or an ISO string). */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamptz the database fills on insert and nobody updates. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A bigserial id. */
export type BigId = ColumnType<number | string, never, never>;
/** A bigint reference to another row, or an amount. */
export type BigRef = ColumnType<number | string, number | string, number | string>;
/** A bigint counter with a default. */
export type BigCount = ColumnType<number | string, number | string | undefined, number | string>;
/** jsonb written as its JSON text. */
export type Json<T> = ColumnType<T, string, string>;
/** jsonb with a default, written as its JSON text. */
export type JsonDefault<T> = ColumnType<T, string | undefined, string>;

/** A jsonb column's value as its type: both drivers answer it parsed; text (a JSON string) is parsed here. */
export const jsonValue = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
