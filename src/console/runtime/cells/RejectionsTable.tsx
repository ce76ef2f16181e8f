// The rows of an uploaded file that were refused — row number, value and the reason in words — as
// a small table under its heading: under a file field (FileWidget, the block list) and as a cell
// (`x-display: rejections`, a flow's training file's answer), the same everywhere.
import { useId } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Rejection } from '../form/upload.ts';
import { enumLabel, type CellProps } from './cells.tsx';

/** The refused rows (maybe the first of `total`), each reason translated by its enum (`enumId`). */
export function Rejections({ rows, total, enumId }: { rows: readonly Rejection[]; total: number; enumId?: string }) {
  const { t, i18n } = useTranslation();
  const heading = useId();
  return (
    <Box component="section" sx={{ mt: 1.5 }} data-testid="upload-rejections">
      <Typography id={heading} variant="subtitle2" component="h3" color="warning.main">
        {t('common.upload.rejectedTitle', { count: total })}
      </Typography>
      {rows.length < total && (
        <Typography variant="body2" color="text.secondary">
          {t('common.upload.rejectedShown', { shown: rows.length, total })}
        </Typography>
      )}
      <Box component="table" aria-labelledby={heading} sx={{ mt: 1, borderCollapse: 'collapse', fontSize: '0.875rem', '& th, & td': { textAlign: 'left', px: 1.5, py: 0.5, borderBottom: 1, borderColor: 'divider' } }}>
        <thead>
          <tr>
            <th scope="col">{t('common.upload.row')}</th>
            <th scope="col">{t('common.upload.value')}</th>
            <th scope="col">{t('common.upload.reason')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.position}:${r.value}`}>
              <td>{r.position}</td>
              <td>{r.value}</td>
              <td>{enumId ? enumLabel(t, enumId, r.reason, (k) => i18n.exists(k)) : r.reason}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/** A cell of refused rows; the count of all of them is the record's `rejectedTotal` when it has one. */
export function RejectionsCell({ value, row, column }: CellProps) {
  if (!Array.isArray(value) || value.length === 0) return <>—</>;
  const total = typeof row.rejectedTotal === 'number' ? row.rejectedTotal : value.length;
  const enumId = column.schema['x-enum'] ?? (column.schema.items as Record<string, unknown> | undefined)?.['x-enum'];
  return <Rejections rows={value as Rejection[]} total={total} enumId={typeof enumId === 'string' ? enumId : undefined} />;
}
