// One record's fields as label and value, each value drawn by its cell (a detail tab's group of
// fields, a form's result box): enum labels, dates, status chips, as in the lists; a field whose
// name alone does not explain it carries its help under the label. A long unbroken value (a hash, a
// signature) wraps inside its column instead of running past the page.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ScreenColumn } from '../screen-types.ts';
import { cellFor, valueAt } from './registry.ts';

/** A field's help, when its locale has one: fields.help.<field> ("Máximo de interacciones completas" explained). */
export const fieldHelpKey = (field: string) => `fields.help.${field.split('.')[0]}`;

export function RecordFields({ fields, record }: { fields: readonly ScreenColumn[]; record: Record<string, unknown> }) {
  const { t, i18n } = useTranslation();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(160px, 1fr) 3fr' }, columnGap: 3, rowGap: 1.5, m: 0 }}>
      {fields.map((c) => {
        const Cell = cellFor(c);
        return (
          <Box key={c.field} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary" variant="body2">
              {t(c.label)}
              {i18n.exists(fieldHelpKey(c.field)) && (
                <Typography component="span" variant="caption" sx={{ display: 'block' }}>
                  {t(fieldHelpKey(c.field))}
                </Typography>
              )}
            </Typography>
            <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }} data-field={c.field}>
              <Cell value={valueAt(record, c.field)} row={record} column={c} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

export default RecordFields;
