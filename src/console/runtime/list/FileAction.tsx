// Actions on an operation that takes a file (`upload:` on a bulk or detail action, the operation
// declaring `multipart: [file]`): the button opens the file chooser, the file is checked against
// the action's rules (types, size, name: spec 5) before a byte is sent, then uploaded with a
// progress bar; once every byte is up the bar turns indeterminate while the server still
// validates. The answer's `result` fields (an upload's counts) show in a box under the actions.
import { forwardRef, useImperativeHandle, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { RecordFields } from '../cells/RecordFields.tsx';
import { acceptAttribute, fileProblem, INVALID_FILE_KEY, type UploadSpec } from '../form/upload.ts';
import type { ScreenAction, ScreenColumn } from '../screen-types.ts';

export interface FilePickerHandle { open(action: ScreenAction): void }

/** The rules of an action's upload, with the campaign-file defaults of constants.uploads. */
export const actionUploadSpec = (a: ScreenAction): UploadSpec => ({ accept: 'campaignFileExtensions', maxBytes: 'campaignFileBytes', ...(a.upload ?? {}) });

/**
 * One hidden file input for every upload action of a screen: `open(action)` shows the chooser
 * with that action's accepted types; the chosen file comes back checked, or the reason it was refused.
 */
export const FilePicker = forwardRef<FilePickerHandle, { onFile: (action: ScreenAction, file: File) => void; onRefused: (text: string) => void }>(function FilePicker({ onFile, onRefused }, ref) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const current = useRef<ScreenAction | null>(null);
  useImperativeHandle(ref, () => ({
    open(action) {
      current.current = action;
      if (!input.current) return;
      input.current.accept = acceptAttribute(actionUploadSpec(action));
      input.current.setAttribute('aria-label', t(action.label));
      input.current.click();
    },
  }));
  return (
    <input
      ref={input}
      type="file"
      hidden
      data-testid="action-file"
      onChange={(e) => {
        const file = e.target.files?.[0];
        const action = current.current;
        e.target.value = '';
        if (!file || !action) return;
        const bad = fileProblem(file, actionUploadSpec(action));
        if (bad) return onRefused(`${t(INVALID_FILE_KEY)} ${t(`validation.file.${bad.reason}`, { types: bad.types, mb: bad.mb })}`);
        onFile(action, file);
      }}
    />
  );
});

/** Upload progress in percent; 100 means the bytes are up and the server is still working. */
export function UploadProgress({ percent }: { percent: number | null }) {
  const { t } = useTranslation();
  if (percent === null) return null;
  const validating = percent >= 100;
  return (
    <Box sx={{ mb: 2 }} data-testid="upload-progress">
      <Typography variant="body2" color="text.secondary" role="status">
        {validating ? t('common.upload.validating') : t('common.upload.percent', { percent })}
      </Typography>
      <LinearProgress variant={validating ? 'indeterminate' : 'determinate'} value={validating ? undefined : percent} aria-label={t(validating ? 'common.upload.validating' : 'common.upload.progress')} />
    </Box>
  );
}

/** The answer fields an action declared as its `result`, in a box the user can close. */
export function ActionResult({ title, fields, answer, onClose }: { title: string; fields: readonly ScreenColumn[]; answer: Record<string, unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2, '& .MuiAlert-message': { width: '100%' } }}
      data-testid="action-result"
      action={
        <IconButton size="small" aria-label={t('common.close')} onClick={onClose}>
          <Close fontSize="small" />
        </IconButton>
      }
    >
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <RecordFields fields={fields} record={answer} />
    </Alert>
  );
}
