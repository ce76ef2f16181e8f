// What a widget drawn as a MUI TextField takes from the form's widget props, the same in every such
// widget: the field's id and label, whether it is required, disabled (read-only included) or in error.
import type { WidgetProps } from '@rjsf/utils';

export function textFieldProps(props: WidgetProps) {
  const { id, label, required, disabled, readonly, rawErrors = [] } = props;
  return { id, fullWidth: true, label, required, disabled: disabled || readonly, error: rawErrors.length > 0 };
}
