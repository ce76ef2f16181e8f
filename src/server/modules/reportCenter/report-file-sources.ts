// What each kind of report file holds (ReportsTypeId, schemas/enums/report-type.yaml): its columns
// (their words in locales/<language>/documents.json, reportFile.*: the file is written in the
// language of whoever asked for it), its rows after a cursor (the last id written, in id order, so the job can write them in
// bounded steps and resume) and each row's cells. One entry per report type: a type without its
// source is a type error, and the job (report-files.ts) never needs to know which it is writing.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { operatorSql } from '../../../engine/lifecycle/index.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { ReportType } from '../../../generated/enums.gen.ts';
import type { SCREEN_REPORT_TYPE } from './report-screens.ts';
import { wordsFor, type DocumentKey, type DocumentLanguage, type Words } from '../../i18n/document-words.ts';

/** A report file's column or sheet: documents.json has its words (reportFile.*). */
type FileWord<Prefix extends string> = DocumentKey extends infer K ? (K extends `${Prefix}${infer C}` ? C : never) : never;
type Column = Exclude<FileWord<'reportFile.'>, `sheet.${string}`>;
type Sheet = FileWord<'reportFile.sheet.'>;

const TIME_ZONE = constants.sendWindow.timeZone;

/** What a report file was asked for, kept on its row (the job reads it; the list shows it). */
/** `purposes`: the advanced query's "transactions" filter, the kinds of message (OTP, transactional, commercial); none given, all. */
export interface FileParams { accountIds: number[]; campaignIds?: number[]; deploymentId?: number | null; purposes?: string[]; dateStart: string; dateEnd: string; from: string; to: string }

interface FileSource<R extends { id: number | string }> {
  /** The file name's start (…-<id>-<day>.csv). */
  fileName: string;
  /**
   * True: rows of the chosen accounts (at least one, the company's: 99961), which campaigns or one
   * run may narrow. False: the company's whole activity, which takes no accounts, campaigns or run (99931).
   */
  byAccounts: boolean;
  /** The workbook's sheet (format xlsx): documents.json reportFile.sheet.<this>. */
  sheet: Sheet;
  /** The columns, in order: documents.json reportFile.<column> titles them. */
  columns: readonly Column[];
  after(db: Kysely<Database>, companyId: number, p: FileParams, cursor: number, limit: number): Promise<R[]>;
  cells(row: R, words: Words): unknown[];
}

/** A file's first row, in its language. */
export const headerOf = (source: Pick<FileSource<never>, 'columns'>, language: DocumentLanguage): string[] =>
  source.columns.map((c) => wordsFor(language).text(`reportFile.${c}`));

/** A file's sheet name, in its language. */
export const sheetNameOf = (source: Pick<FileSource<never>, 'sheet'>, language: DocumentLanguage): string => wordsFor(language).text(`reportFile.sheet.${source.sheet}`);

type MessageRow = {
  id: number | string; at: string; account: string; to_number: string; state: string; status_code: number; operator: string | null;
  parts: number; credits: number | string; campaign: string | null; deployment_id: number | string | null;
};

const messages: FileSource<MessageRow> = {
  fileName: 'reporte-mensajes',
  byAccounts: true,
  sheet: 'messages',
  columns: ['at', 'account', 'number', 'state', 'statusCode', 'operator', 'parts', 'credits', 'campaign', 'deployment'],
  async after(db, companyId, p, cursor, limit) {
    const op = operatorSql('m');
    const rows = await sql<MessageRow>`
      select m.id, to_char(m.created_at at time zone ${TIME_ZONE}, 'YYYY-MM-DD HH24:MI:SS') as at, ch.name as account, m.to_number, m.state, m.status_code,
             o.name as operator, m.parts, case when m.billed then m.cost else 0 end as credits, c.name as campaign, m.deployment_id
      from messages m
      join channels ch on ch.id = m.channel_id
      left join sms_operators o on o.id = ${sql.raw(op.id)}
      left join deployments d on d.id = m.deployment_id
      left join campaigns c on c.id = d.campaign_id
      where m.company_id = ${companyId} and m.channel_id = any(${p.accountIds}::int[])
        and m.created_at >= ${p.from}::timestamptz and m.created_at < ${p.to}::timestamptz and m.id > ${cursor}
        ${p.campaignIds?.length ? sql`and d.campaign_id = any(${p.campaignIds}::int[])` : sql``}
        ${p.deploymentId ? sql`and m.deployment_id = ${p.deploymentId}` : sql``}
        ${p.purposes?.length ? sql`and m.purpose = any(${p.purposes}::text[])` : sql``}
      order by m.id
      limit ${limit}`.execute(db);
    return rows.rows;
  },
  cells: (r, words) => [r.at, r.account, r.to_number, words.enumLabel('message-state', r.state), r.status_code, r.operator ?? '', r.parts, Number(r.credits), r.campaign ?? '', r.deployment_id ?? ''],
};

type LogEventRow = {
  id: number | string; at: string; user_email: string | null; ip: string | null; method: string; path: string; operation_id: string | null;
  component_id: number | null; component_name: string | null; component_action: string | null; status: number;
};

const logEvents: FileSource<LogEventRow> = {
  fileName: 'eventos-registro',
  byAccounts: false,
  sheet: 'logEvents',
  columns: ['at', 'user', 'ip', 'method', 'path', 'operation', 'component', 'componentName', 'action', 'httpStatus'],
  async after(db, companyId, p, cursor, limit) {
    const rows = await sql<LogEventRow>`
      select a.id, to_char(a.created_at at time zone ${TIME_ZONE}, 'YYYY-MM-DD HH24:MI:SS') as at, a.user_email, a.ip, a.method, a.path, a.operation_id,
             a.component_id, a.component_name, a.component_action, a.status
      from audit_log a
      where a.company_id = ${companyId} and a.created_at >= ${p.from}::timestamptz and a.created_at < ${p.to}::timestamptz and a.id > ${cursor}
      order by a.id
      limit ${limit}`.execute(db);
    return rows.rows;
  },
  cells: (r) => [r.at, r.user_email ?? '', r.ip ?? '', r.method, r.path, r.operation_id ?? '', r.component_id ?? '', r.component_name ?? '', r.component_action ?? '', r.status],
};

/** The types a job writes from the database; a report screen's table (SCREEN_REPORT_TYPE) is written by report-screens.ts. */
export type SourcedReportType = Exclude<ReportType, typeof SCREEN_REPORT_TYPE>;

export const fileSources: { [K in SourcedReportType]: FileSource<{ id: number | string }> } = {
  1: messages as FileSource<{ id: number | string }>,
  2: logEvents as FileSource<{ id: number | string }>,
};

/** The start of a file's name (…-<id>-<day>.csv). */
export const fileNameOf = (type: ReportType): string => (type in fileSources ? fileSources[type as SourcedReportType].fileName : 'reporte-programado');
