// The compiled screens as the generic renderers read them. Their types are generated from the
// screen meta-schema (src/generated/screen-types.gen.ts, by generators/emit/screen-types.ts), so
// the screen vocabulary is typed once; here they take the form library's schema types.
// docs/console.md, "Screen kinds", documents the YAML each kind comes from.
// In the product a route hands its renderer the screen's own compiled module
// (src/generated/screen.<id>.gen.ts, loaded with the route); nothing loads the whole table.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { ScreenDef as CompiledScreen, ScreenTab as CompiledTab } from '../../generated/screen-types.gen.ts';

export type {
  CellSchema, OperationCall, Permission, RowCondition, ScreenAction, ScreenCall, ScreenCard, ScreenChart, ScreenColumn, ScreenFilter, ScreenKind, ScreenRefresh, ScreenStep, ScreenTable,
} from '../../generated/screen-types.gen.ts';

/** A compiled screen with its rjsf schema and uiSchema. */
export type ScreenDef = CompiledScreen<RJSFSchema, UiSchema>;
export type ScreenTab = CompiledTab<RJSFSchema, UiSchema>;

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
