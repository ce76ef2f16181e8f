import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { appSettings } from '../../../../generated/app.gen.ts';

/** The token the sandbox verifier accepts (config/app.yaml captcha.provider: sandbox). */
export const SANDBOX_CAPTCHA_TOKEN = 'sandbox-ok';

/**
 * Human verification. The check is pluggable (section 3); with the `sandbox` provider the
 * widget is a plain "I am not a robot" box that fills the token the sandbox verifier accepts.
 */
export default function CaptchaWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, label, required, rawErrors = [] } = props;
  if (appSettings.captcha.provider !== 'sandbox') {
    return <Typography color="error">{t('common.captcha.unavailable')}</Typography>;
  }
  return (
    <FormControl error={rawErrors.length > 0} required={required} component="fieldset" variant="standard">
      <FormLabel component="legend">{label}</FormLabel>
      <FormControlLabel
        control={
          <Checkbox
            id={id}
            checked={value === SANDBOX_CAPTCHA_TOKEN}
            disabled={disabled || readonly}
            onChange={(_, checked) => onChange(checked ? SANDBOX_CAPTCHA_TOKEN : undefined)}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
        }
        label={t('common.captcha.notRobot')}
      />
    </FormControl>
  );
}
