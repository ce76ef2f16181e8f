// The compiled screens (built by generators/emit/screens.ts) as the generic renderers read them.
// One interface covers every kind; README "Screen kinds" documents the YAML each comes from.
// In the product a route hands its renderer the screen's own compiled module
// (src/generated/screen.<id>.gen.ts, loaded with the route); nothing loads the whole table.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';

export interface Permission { component: number; action: string }

/** Which rows an action shows on: values are data or expressions ($session.idUser). */
export interface RowCondition { field: string; equals?: unknown; notEquals?: unknown; in?: readonly unknown[]; notIn?: readonly unknown[] }

export interface ScreenAction {
  label: string;
  operation?: string;
  /** Navigation target; `{field}` takes the row's (or record's) value, a relative path hangs off the screen's base path. */
  to?: string;
  params?: Record<string, unknown>;
  fields?: readonly string[];
  body?: Record<string, unknown>;
  when?: RowCondition;
  notify?: string;
  /** true: the generic question; a key: that text. DELETE operations confirm by default. */
  confirm?: boolean | string;
  permission?: Permission;
  method?: string;
  /** Answer fields shown once in a copy box (a rotated credential's new key). */
  showOnce?: readonly string[];
  /** An operation that takes a file (multipart): the action picks one, checked against these rules, and uploads it with progress. */
  upload?: { accept?: string | readonly string[]; maxBytes?: string | number };
  /** Answer fields shown in a result box after the action (an upload's counts). */
  result?: readonly ScreenColumn[];
  /** Where to go after the operation succeeds: `{field}` takes the answer's values; `?tab=3` stays on the page. */
  next?: string;
}

/** Periodic refresh of a list or detail while its rows (or record) still change: a running deployment. */
export interface ScreenRefresh { ms: number; while?: RowCondition | readonly RowCondition[] }

/** A field's display schema: what the cell testers look at. */
export type CellSchema = Record<string, unknown>;

export interface ScreenColumn {
  field: string;
  label: string;
  schema: CellSchema;
  /** A cell registry key chosen in the YAML; otherwise the ranked testers choose. */
  cell?: string;
  width?: number;
  colors?: Record<string, string>;
  sortable?: boolean;
}

export interface ScreenFilter { field: string; label: string; schema: CellSchema }

export interface ScreenCard { label: string; operation: string; params?: Record<string, unknown>; value: string; format?: 'cop' | 'integer' | 'text'; to?: string }

export interface ScreenChart {
  label?: string;
  operation?: string;
  params?: Record<string, unknown>;
  itemsPath?: string;
  top?: number;
  sortBy?: string;
  /** Report: values of these fields drawn as t(`<prefix>.<value>`). */
  translate?: Record<string, string>;
  spec: Record<string, unknown>;
}

export interface ScreenTab {
  label: string;
  fields?: readonly ScreenColumn[];
  /** The fields come from another operation's answer (a campaign's pre-launch summary), fetched when the tab opens. */
  load?: { operation: string; params?: Record<string, unknown> };
  screen?: string;
  params?: Record<string, unknown>;
  list?: ScreenDef;
}

/** A wizard step; with `when`, the step is taken only when the values so far meet it (a date for scheduled campaigns). */
export interface ScreenStep { label: string; description?: string; fields: readonly string[]; when?: RowCondition }

export interface OperationCall {
  operation: string;
  params?: Record<string, unknown>;
  method?: string;
  permission?: Permission;
  readonly?: readonly string[];
  /** The properties the operation's body takes (it refuses others): the form sends only these. */
  body?: readonly string[];
}

export type ScreenKind = 'form' | 'message' | 'list' | 'dashboard' | 'detail' | 'wizard' | 'report';

export interface ScreenDef {
  id: string;
  kind: ScreenKind;
  route?: string;
  access?: 'public' | 'session';
  layout?: string;
  title: string;
  description?: string;
  operation?: string;
  sessionScreen?: string;
  sessionScreenDef?: ScreenDef;
  params?: Record<string, unknown>;
  load?: { operation: string; params?: Record<string, unknown> };
  picture?: { get: string; upload: string; params?: Record<string, unknown> };
  schema?: RJSFSchema;
  uiSchema?: UiSchema;
  values?: Record<string, unknown>;
  prefill?: Record<string, unknown>;
  reveal?: Record<string, { onError: string }>;
  /** A field shows only while the form's values meet its condition; a hidden field's value is not sent. */
  showWhen?: Record<string, RowCondition>;
  submitLabel?: string;
  onSuccess?: {
    effect: 'startSession' | 'navigate' | 'updateSession' | 'stay' | 'reset' | 'view';
    to?: string;
    notify?: string;
    tokenKind?: 'client';
    showOnce?: readonly string[];
    /** Answer fields shown under the form after the save, with their cells (a test's delivery status). */
    result?: readonly ScreenColumn[];
  };
  onErrorDefault?: string;
  links?: readonly { to: string; label: string }[];
  secondaryActions?: readonly ScreenAction[];
  message?: string;
  severity?: 'info' | 'warning' | 'error' | 'success';
  // form modes
  create?: OperationCall;
  edit?: OperationCall;
  view?: boolean;
  idField?: string;
  dirtyGuard?: boolean;
  // list
  itemsPath?: string;
  entity?: string;
  columns?: readonly ScreenColumn[];
  paged?: boolean;
  search?: boolean;
  filters?: readonly ScreenFilter[];
  defaultSort?: { field: string; order?: 'asc' | 'desc' };
  pageSize?: number;
  form?: string;
  /** What the list needs of its form (inlined by the generator): New, Edit, and whether rows open. */
  formModes?: { create: OperationCall; edit?: OperationCall; view: boolean };
  /** The rows the list's Edit shows on (the server refuses the others: system roles). */
  editWhen?: RowCondition;
  detail?: string;
  rowActions?: readonly ScreenAction[];
  bulkActions?: readonly ScreenAction[];
  export?: readonly ('csv' | 'xlsx')[];
  exportName?: string;
  empty?: string;
  permission?: Permission;
  /** The header's subtabs (menu node subtabs, `?tab=<key>`) as filter presets: `{ campaigns.open: { kind: open } }`. */
  subtabs?: Record<string, Record<string, string>>;
  /** List and detail: fetched again every `ms` while a row (the record) meets `while`. */
  refresh?: ScreenRefresh;
  // detail
  tabs?: readonly ScreenTab[];
  actions?: readonly ScreenAction[];
  // wizard
  steps?: readonly ScreenStep[];
  // report
  payload?: Record<string, unknown>;
  chart?: ScreenChart;
  /** A totals line: the answer's object at `path`, one figure per table column it holds. */
  totals?: { path: string; label?: string };
  // dashboard
  cards?: readonly ScreenCard[];
  charts?: readonly ScreenChart[];
}

let provided: Record<string, ScreenDef> = {};

/** A screen handed in by id (stories and tests: the generated table, fixtures); the product hands each screen to its route. */
export function screenById(id: string | null | undefined): ScreenDef | undefined {
  return id ? provided[id] : undefined;
}

/** Makes compiled screens findable by id (Storybook's preview provides the whole generated table). */
export function provideScreens(more: Record<string, ScreenDef>): void {
  provided = { ...provided, ...more };
}

/**
 * Props every screen renderer takes (the route table passes the ids). `screen` hands a compiled
 * screen directly (stories, nested lists in detail tabs); `params` are extra fixed values
 * (a detail tab's list params).
 */
export interface ScreenProps { screenId: string | null; menuKey: string | null; screen?: ScreenDef; params?: Record<string, unknown> }

/** The compiled screen a renderer shows: the one handed in, else the one the route names. */
export function resolveScreen(props: ScreenProps): ScreenDef | undefined {
  return props.screen ?? screenById(props.screenId);
}
