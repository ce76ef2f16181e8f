// A secret the server shows once (a new API credential): a copy box with a warning. Closing the
// dialog drops the value from memory; nothing on the screen can show it again.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { copyText } from '../clipboard.ts';

export interface SecretOnceProps {
  secrets: { field: string; label: string; value: string }[] | null;
  onClose: () => void;
}

export function SecretOnce({ secrets, onClose }: SecretOnceProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <Dialog open={!!secrets?.length} aria-labelledby="secret-once-title" maxWidth="sm" fullWidth>
      <DialogTitle id="secret-once-title">{t('common.secret.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('common.secret.warning')}
        </Alert>
        {(secrets ?? []).map((s) => (
          <Box key={s.field} sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1.5 }}>
            <TextField
              fullWidth
              label={s.label}
              value={s.value}
              slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' }, 'data-testid': `secret-${s.field}` } }}
              onFocus={(e) => e.target.select()}
            />
            <Tooltip title={copied === s.field ? t('common.secret.copied') : t('common.secret.copy')}>
              <IconButton aria-label={t('common.secret.copy')} onClick={() => void copyText(s.value).then((ok) => setCopied(ok ? s.field : null))}>
                <ContentCopy />
              </IconButton>
            </Tooltip>
          </Box>
        ))}
        {copied && (
          <Alert severity="success" role="status">
            {t('common.secret.copied')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          variant="contained"
          onClick={() => {
            setCopied(null);
            onClose();
          }}
        >
          {t('common.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
