// One record's fields as label and value, each value drawn by its cell (a detail tab's group of
// fields, a form's result box): enum labels, dates, status chips, as in the lists.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ScreenColumn } from '../screen-types.ts';
import { cellFor, valueAt } from './registry.ts';

export function RecordFields({ fields, record }: { fields: readonly ScreenColumn[]; record: Record<string, unknown> }) {
  const { t } = useTranslation();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(160px, 1fr) 3fr' }, columnGap: 3, rowGap: 1.5, m: 0 }}>
      {fields.map((c) => {
        const Cell = cellFor(c);
        return (
          <Box key={c.field} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary" variant="body2">
              {t(c.label)}
            </Typography>
            <Box component="dd" sx={{ m: 0 }} data-field={c.field}>
              <Cell value={valueAt(record, c.field)} row={record} column={c} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

export default RecordFields;
