// The widget registry: string keys (usable from YAML through the uiSchema) with ranked testers,
// JSON Forms style; the best key is written into the uiSchema, so it stays plain data. The sign-in
// widgets are imported directly; the others load with the first form that uses them, so the first
// load stays small.
import { createElement, lazy, Suspense, type ComponentType } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import { Widgets } from '@rjsf/mui';
import type { FieldProps, RegistryFieldsType, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { withChunkReload } from '../../../app/chunk-reload.ts';
import { and, formatIs, hasOptions, itemsAre, nameIs, or, rankWith, schemaTypeIs, uiWidgetIs, xWidgetIs, xDisplayIs, bestKey, type RankedEntry, type FieldSchema, type FieldUi, type Tester } from '../testers.ts';
import CaptchaWidget from './CaptchaWidget.tsx';
import PasswordWidget from './PasswordWidget.tsx';
import PhoneWidget from './PhoneWidget.tsx';

/** Keeps a field's height while its widget loads. */
const placeholder = createElement('div', { style: { height: 56 }, 'aria-busy': true });

/** A component loaded on first use, with a placeholder of a field's height meanwhile. */
function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Lazy = lazy(withChunkReload(load));
  const Part = (props: P) => createElement(Suspense, { fallback: placeholder }, createElement(Lazy as ComponentType<P>, props));
  return Part;
}

const OptionsWidget = lazyPart<WidgetProps>(() => import('./OptionsWidget.tsx'));
const CopWidget = lazyPart<WidgetProps>(() => import('./CopWidget.tsx'));
const DateWidget = lazyPart<WidgetProps>(() => import('./DateWidget.tsx'));
const FileWidget = lazyPart<WidgetProps>(() => import('./FileWidget.tsx'));
const ImageWidget = lazyPart<WidgetProps>(() => import('./FileWidget.tsx').then((m) => ({ default: m.ImageWidget })));
const ChipsInputWidget = lazyPart<WidgetProps>(() => import('./ChipsInputWidget.tsx'));
const ColorWidget = lazyPart<WidgetProps>(() => import('./ColorWidget.tsx'));
const SecretWidget = lazyPart<WidgetProps>(() => import('./SecretWidget.tsx'));
const SmsContentWidget = lazyPart<WidgetProps>(() => import('./SmsContentWidget.tsx'));
const DateRangeField = lazyPart<FieldProps>(() => import('./DateRangeField.tsx'));
const ColumnMappingField = lazyPart<FieldProps>(() => import('./ColumnMappingField.tsx'));
const PermissionTreeWidget = lazyPart<WidgetProps>(() => import('./PermissionTreeWidget.tsx'));
const CodeWidget = lazyPart<WidgetProps>(() => import('./CodeWidget.tsx'));
const PhoneListWidget = lazyPart<WidgetProps>(() => import('./PhoneListWidget.tsx'));

const xWidgetIn = (...names: string[]): Tester => or(...names.map(xWidgetIs));
const stringList: Tester = and(schemaTypeIs('array'), itemsAre(schemaTypeIs('string')), (s) => !Array.isArray(((s.items ?? {}) as FieldSchema).enum));
const isSecret: Tester = (s) => s['x-secret'] === true || s.writeOnly === true;
/** A list of permission grants ({ id, actions }), the shape of a role's permission tree. */
const grants: Tester = and(schemaTypeIs('array'), itemsAre((s) => {
  const p = (s.properties ?? {}) as Record<string, unknown>;
  return schemaTypeIs('object')(s, undefined, '') && 'id' in p && 'actions' in p;
}));

export const widgetEntries: RankedEntry<ComponentType<WidgetProps>>[] = [
  { key: 'password', tester: rankWith(10, or(xWidgetIs('password'), uiWidgetIs('password'), formatIs('password-policy'))), component: PasswordWidget },
  { key: 'PhoneWidget', tester: rankWith(10, or(xWidgetIs('phone'), uiWidgetIs('PhoneWidget'))), component: PhoneWidget },
  // A phone-co field without an explicit widget still gets the phone input, at a lower rank.
  { key: 'PhoneWidget', tester: rankWith(5, formatIs('phone-co')), component: PhoneWidget },
  { key: 'CaptchaWidget', tester: rankWith(20, or(xWidgetIs('captcha'), uiWidgetIs('CaptchaWidget'))), component: CaptchaWidget },
  // Pickers: any field whose choices come from an operation; roles, areas and places by name.
  { key: 'OptionsWidget', tester: rankWith(8, hasOptions), component: OptionsWidget },
  { key: 'OptionsWidget', tester: rankWith(12, xWidgetIn('options', 'roles', 'area', 'costCenter', 'country', 'region', 'city')), component: OptionsWidget },
  { key: 'OptionsWidget', tester: rankWith(9, and(schemaTypeIs('array'), or(nameIs('roleIds'), nameIs('roles')), hasOptions)), component: OptionsWidget },
  { key: 'CopWidget', tester: rankWith(10, or(xWidgetIs('cop'), xDisplayIs('cop'), formatIs('cop'))), component: CopWidget },
  { key: 'DateWidget', tester: rankWith(6, formatIs('date')), component: DateWidget },
  { key: 'DateWidget', tester: rankWith(10, xWidgetIs('date')), component: DateWidget },
  { key: 'FileWidget', tester: rankWith(10, xWidgetIs('file')), component: FileWidget },
  { key: 'ImageWidget', tester: rankWith(10, xWidgetIs('image')), component: ImageWidget },
  { key: 'ChipsInputWidget', tester: rankWith(4, stringList), component: ChipsInputWidget },
  { key: 'ChipsInputWidget', tester: rankWith(10, xWidgetIn('chips', 'tags', 'keywords')), component: ChipsInputWidget },
  { key: 'ColorWidget', tester: rankWith(10, or(xWidgetIs('color'), formatIs('color'))), component: ColorWidget },
  // A message text with the live SMS counter (parts, encoding, cost) and the content warnings.
  { key: 'SmsContentWidget', tester: rankWith(10, xWidgetIs('smsContent')), component: SmsContentWidget },
  // Numbers typed or pasted (a campaign's recipients without a file, a test send) with the count read.
  { key: 'PhoneListWidget', tester: rankWith(10, xWidgetIs('phoneList')), component: PhoneListWidget },
  // Text of several lines (a saved list's numbers and ranges, one a line; a file's message): the theme's own.
  { key: 'TextareaWidget', tester: rankWith(10, xWidgetIs('textarea')), component: Widgets.TextareaWidget as ComponentType<WidgetProps> },
  { key: 'SecretWidget', tester: rankWith(11, or(xWidgetIs('secret'), isSecret)), component: SecretWidget },
  { key: 'PermissionTreeWidget', tester: rankWith(12, xWidgetIs('permissionTree')), component: PermissionTreeWidget },
  { key: 'PermissionTreeWidget', tester: rankWith(7, and(nameIs('permissions'), grants)), component: PermissionTreeWidget },
  // A read-only text the server computes (an event's example call), with a Copy button.
  { key: 'CodeWidget', tester: rankWith(20, xWidgetIs('code')), component: CodeWidget },
  // A value the form carries but does not show (the id a PUT body repeats): rjsf's own hidden input.
  { key: 'hidden', tester: rankWith(20, xWidgetIs('hidden')), component: getDefaultRegistry().widgets.HiddenWidget },
];

/** Fields render a whole object (the date range's start and end). */
export const fieldEntries: RankedEntry<ComponentType<FieldProps>>[] = [
  { key: 'DateRangeField', tester: rankWith(10, and(schemaTypeIs('object'), xWidgetIs('dateRange'))), component: DateRangeField },
  // Names → columns (a WhatsApp template's parameters → the recipients file's columns).
  { key: 'ColumnMappingField', tester: rankWith(10, and(schemaTypeIs('object'), xWidgetIs('columnMapping'))), component: ColumnMappingField },
];

export const widgets: RegistryWidgetsType = Object.fromEntries(widgetEntries.map((e) => [e.key, e.component]));
export const fields: RegistryFieldsType = Object.fromEntries(fieldEntries.map((e) => [e.key, e.component]));

export type Choice = { kind: 'widget' | 'field'; key: string };

/** The best widget (or whole-object field) for a field, or undefined for the theme's default. */
export function chooseWidget(schema: FieldSchema, ui: FieldUi, name: string): Choice | undefined {
  const field = bestKey(fieldEntries, schema, ui, name);
  if (field) return { kind: 'field', key: field };
  const widget = bestKey(widgetEntries, schema, ui, name);
  return widget ? { kind: 'widget', key: widget } : undefined;
}

export { CaptchaWidget, PasswordWidget, PhoneWidget };
