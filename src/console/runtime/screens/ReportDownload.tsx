// A report's server-made file (`download` in a report declaration): the operation that produces
// it (an Excel twin) is called with the payload of the report's last run and the file is saved
// under the declared name. Shown once the report ran, and only to whom the operation's permission
// admits; a refusal is said next to the button.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FileDownload from '@mui/icons-material/FileDownload';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { saveFile } from '../download.ts';

export interface ReportDownloadProps {
  label: string;
  fileName: string;
  /** Calls the operation with the last run's payload. */
  fetchFile: () => Promise<unknown>;
}

export function ReportDownload({ label, fileName, fetchFile }: ReportDownloadProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const file = await fetchFile();
      if (!(file instanceof Blob)) throw new Error('not a file');
      saveFile(file, fileName);
    } catch (e) {
      setError(errorText(t, e, 'errors.client.generateFile'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" variant="contained" startIcon={<FileDownload />} disabled={busy} aria-busy={busy} onClick={() => void start()}>
        {t(label)}
      </Button>
      {error && (
        <Alert severity="error" role="alert" onClose={() => setError(null)} sx={{ width: '100%' }}>
          {error}
        </Alert>
      )}
    </>
  );
}
