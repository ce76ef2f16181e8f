import InputAdornment from '@mui/material/InputAdornment';
import { getTemplate, type WidgetProps } from '@rjsf/utils';

/** A Colombian phone number: the +57 country code is shown, the user types the 10 digits. */
export default function PhoneWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  return (
    <BaseInputTemplate
      {...props}
      type="tel"
      autoComplete="tel-national"
      inputMode="numeric"
      InputProps={{ startAdornment: <InputAdornment position="start">+57</InputAdornment> }}
    />
  );
}
