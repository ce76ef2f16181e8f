// A loose view of the compiled screens (src/generated/screens.gen.ts) for the generic renderers.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { screens } from '../../generated/screens.gen.ts';

export interface ScreenAction {
  label: string;
  operation: string;
  fields?: readonly string[];
  body?: Record<string, unknown>;
  when?: { field: string; equals?: unknown };
  notify?: string;
}

export interface ScreenColumn { field: string; label: string; type: 'string' | 'datetime' | 'boolean' | 'integer' | 'number' | string }

export interface ScreenCard { label: string; operation: string; params?: Record<string, unknown>; value: string; format?: 'cop' | 'integer' | 'text'; to?: string }

export interface ScreenDef {
  id: string;
  kind: 'form' | 'message' | 'list' | 'dashboard';
  route?: string;
  access?: 'public' | 'session';
  layout?: string;
  title: string;
  description?: string;
  operation?: string;
  sessionScreen?: string;
  params?: Record<string, unknown>;
  load?: { operation: string; params?: Record<string, unknown> };
  picture?: { get: string; upload: string; params?: Record<string, unknown> };
  schema?: RJSFSchema;
  uiSchema?: UiSchema;
  values?: Record<string, unknown>;
  prefill?: Record<string, unknown>;
  reveal?: Record<string, { onError: string }>;
  submitLabel?: string;
  onSuccess?: { effect: 'startSession' | 'navigate' | 'updateSession' | 'stay' | 'reset'; to?: string; notify?: string; tokenKind?: 'client' };
  onErrorDefault?: string;
  links?: readonly { to: string; label: string }[];
  secondaryActions?: readonly ScreenAction[];
  message?: string;
  severity?: 'info' | 'warning' | 'error' | 'success';
  itemsPath?: string;
  entity?: string;
  columns?: readonly ScreenColumn[];
  rowActions?: readonly ScreenAction[];
  bulkActions?: readonly ScreenAction[];
  empty?: string;
  cards?: readonly ScreenCard[];
}

const table = screens as unknown as Record<string, ScreenDef>;

export function screenById(id: string | null | undefined): ScreenDef | undefined {
  return id ? table[id] : undefined;
}

/** Props every screen renderer takes (the route table passes them). */
export interface ScreenProps { screenId: string | null; menuKey: string | null }
