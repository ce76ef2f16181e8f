// "Export CSV" / "Export XLSX" for a list or a report: gathers every row of the current query with
// a progress bar (and a cancel button), builds the file and hands it to the download sink.
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import FileDownload from '@mui/icons-material/FileDownload';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { saveFile } from '../download.ts';
import { formatInteger } from '../format.ts';
import type { ScreenColumn } from '../screen-types.ts';
import { buildExport, type ExportFormat } from './export.ts';
import type { Row } from './paged-rows.ts';

export interface ExportButtonsProps {
  formats: readonly ExportFormat[];
  name: string;
  columns: readonly ScreenColumn[];
  /** Every row of the current query; reports progress as (done, total). */
  rows: (onProgress: (done: number, total: number) => void, signal: AbortSignal) => Promise<readonly Row[]>;
  disabled?: boolean;
}

export function ExportButtons({ formats, name, columns, rows, disabled }: ExportButtonsProps) {
  const { t, i18n } = useTranslation();
  const [job, setJob] = useState<{ format: ExportFormat; done: number; total: number | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = async (format: ExportFormat) => {
    setError(null);
    const controller = new AbortController();
    abort.current = controller;
    setJob({ format, done: 0, total: null });
    try {
      const all = await rows((done, total) => setJob((j) => (j ? { ...j, done, total } : j)), controller.signal);
      if (controller.signal.aborted) return;
      const file = await buildExport(format, name, columns, all, t, (k) => i18n.exists(k), i18n.language);
      saveFile(file.blob, file.fileName);
    } catch (e) {
      if (!controller.signal.aborted) setError(errorText(t, e, 'errors.client.generateFile'));
    } finally {
      abort.current = null;
      setJob(null);
    }
  };

  if (!formats.length) return null;
  const percent = job?.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;
  return (
    <>
      {formats.map((f) => (
        <Button key={f} size="small" variant="outlined" startIcon={<FileDownload />} disabled={disabled || job !== null} onClick={() => void start(f)}>
          {t(`common.export.${f}`)}
        </Button>
      ))}
      {error && (
        <Alert severity="error" role="alert" onClose={() => setError(null)} sx={{ width: '100%' }}>
          {error}
        </Alert>
      )}
      <Dialog open={job !== null} aria-labelledby="export-title" maxWidth="xs" fullWidth>
        <DialogTitle id="export-title">{t('common.export.title')}</DialogTitle>
        <DialogContent>
          <LinearProgress variant={job?.total ? 'determinate' : 'indeterminate'} value={percent} aria-label={t('common.export.progress')} />
          <Typography variant="body2" sx={{ mt: 1 }} data-testid="export-progress">
            {job?.total !== null && job ? t('common.export.rows', { done: formatInteger(job.done), total: formatInteger(job.total) }) : t('common.loading')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => abort.current?.abort()}>{t('common.cancel')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
