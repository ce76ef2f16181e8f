// The widget registry: string keys (usable from YAML through the uiSchema) with ranked testers.
import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import type { ComponentType } from 'react';
import { or, rankWith, formatIs, uiWidgetIs, xWidgetIs, bestKey, type RankedEntry, type FieldSchema, type FieldUi } from '../testers.ts';
import CaptchaWidget from './CaptchaWidget.tsx';
import PasswordWidget from './PasswordWidget.tsx';
import PhoneWidget from './PhoneWidget.tsx';

export const widgetEntries: RankedEntry<ComponentType<WidgetProps>>[] = [
  { key: 'password', tester: rankWith(10, or(xWidgetIs('password'), uiWidgetIs('password'), formatIs('password-policy'))), component: PasswordWidget },
  { key: 'PhoneWidget', tester: rankWith(10, or(xWidgetIs('phone'), uiWidgetIs('PhoneWidget'))), component: PhoneWidget },
  // A phone-co field without an explicit widget still gets the phone input, at a lower rank.
  { key: 'PhoneWidget', tester: rankWith(5, formatIs('phone-co')), component: PhoneWidget },
  { key: 'CaptchaWidget', tester: rankWith(20, or(xWidgetIs('captcha'), uiWidgetIs('CaptchaWidget'))), component: CaptchaWidget },
];

export const widgets: RegistryWidgetsType = Object.fromEntries(widgetEntries.map((e) => [e.key, e.component]));

export function chooseWidget(schema: FieldSchema, ui: FieldUi, name: string): string | undefined {
  return bestKey(widgetEntries, schema, ui, name);
}

export { CaptchaWidget, PasswordWidget, PhoneWidget };
