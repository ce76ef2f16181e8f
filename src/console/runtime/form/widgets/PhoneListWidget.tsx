// Numbers typed or pasted into a box (`x-widget: phoneList`: a campaign's recipients instead of a
// file, the numbers of a test send): a multiline field with a live count of the numbers read,
// split by the same rule the server splits with (core/phone-list.ts), so the count shown is the
// count the server reads. `x-maxNumbers` caps it: past it the count turns into the limit's warning
// before the server refuses. The count is a polite live region.
import { useId, useMemo } from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { splitPastedNumbers } from '../../../../core/phone-list.ts';
import { formatInteger } from '../../format.ts';
import { textFieldProps } from './text-field.ts';

export default function PhoneListWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, rawErrors = [], schema, placeholder } = props;
  const text = typeof value === 'string' ? value : '';
  const read = useMemo(() => splitPastedNumbers(text).length, [text]);
  const max = typeof schema['x-maxNumbers'] === 'number' ? (schema['x-maxNumbers'] as number) : undefined;
  const over = max !== undefined && read > max;
  const counterId = useId();
  return (
    <Box>
      <TextField
        {...textFieldProps(props)}
        multiline
        minRows={max !== undefined && max <= 10 ? 2 : 6}
        maxRows={16}
        error={rawErrors.length > 0 || over}
        value={text}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        slotProps={{ htmlInput: { maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined, 'aria-describedby': counterId, spellCheck: false } }}
      />
      <Typography id={counterId} role="status" aria-live="polite" variant="body2" color={over ? 'error' : 'text.secondary'} sx={{ mt: 1 }} data-testid="phone-list-count">
        {over
          ? t('common.phoneList.tooMany', { read: formatInteger(read), max: formatInteger(max) })
          : t('common.phoneList.read', { read: formatInteger(read), max: max === undefined ? '' : formatInteger(max) })}
      </Typography>
    </Box>
  );
}
