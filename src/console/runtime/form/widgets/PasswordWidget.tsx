import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';

/** A password input with a show/hide button. */
export default function PasswordWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  // A password that another field must repeat is a new one; otherwise it is the current one.
  const properties = (props.registry.rootSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const isNew = Object.values(properties).some((p) => p['x-sameAs'] === props.name) || !!props.schema['x-sameAs'];
  const autoComplete = isNew ? 'new-password' : 'current-password';
  return (
    <BaseInputTemplate
      {...props}
      type={shown ? 'text' : 'password'}
      autoComplete={autoComplete}
      InputProps={{
        endAdornment: (
          <InputAdornment position="end">
            <IconButton aria-label={t(shown ? 'common.hidePassword' : 'common.showPassword')} onClick={() => setShown((s) => !s)} edge="end" size="small">
              {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
            </IconButton>
          </InputAdornment>
        ),
      }}
    />
  );
}
