// The profile picture of a form screen (`picture:` in the declaration): shows the stored picture,
// the default icon when there is none (an empty answer or an object, spec 7), and uploads a new
// one with a progress bar.
import { useRef, useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { call, useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { updateSession } from '../../api/session.ts';
import { notify } from '../../app/notify.tsx';

export interface ProfilePictureProps { get: string; upload: string; params: Record<string, unknown> }

/** A usable picture URL, or null for the default icon. */
export function pictureUrl(answer: unknown): string | null {
  const url = answer && typeof answer === 'object' ? (answer as { url?: unknown }).url : answer;
  return typeof url === 'string' && url.trim() ? url : null;
}

export function ProfilePicture({ get, upload, params }: ProfilePictureProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { mutate } = useSWRConfig();
  const args = buildArgs(get, params);
  const { data } = useOperation(get as OperationId, args as never);
  const url = pictureUrl(data);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    const types = constants.uploads.pictureTypes as readonly string[];
    if (!types.includes(file.type)) return setError(t('common.picture.wrongType'));
    if (file.size > constants.uploads.profilePictureBytes) return setError(t('common.picture.tooLarge', { mb: Math.round(constants.uploads.profilePictureBytes / 1048576) }));
    const form = new FormData();
    form.append('file', file);
    setProgress(0);
    try {
      const answer = await call(upload as OperationId, { ...buildArgs(upload, params), form, onUploadProgress: (f: number) => setProgress(Math.round(f * 100)) } as never);
      const next = pictureUrl(answer);
      if (next) updateSession({ profilePic: next });
      await mutate([get, JSON.stringify(args)], answer, { revalidate: false });
      notify('common.picture.saved');
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
      <Avatar src={url ?? undefined} alt={t('common.picture.alt')} sx={{ width: 72, height: 72, bgcolor: 'secondary.main', color: 'secondary.contrastText' }}>
        {url ? null : <AccountCircle sx={{ fontSize: 56 }} data-testid="default-picture" />}
      </Avatar>
      <Box sx={{ flex: 1 }}>
        <input ref={input} type="file" hidden accept={(constants.uploads.pictureTypes as readonly string[]).join(',')} aria-label={t('common.picture.choose')} onChange={(e) => void onFile(e.target.files?.[0])} />
        <Button variant="outlined" size="small" onClick={() => input.current?.click()} disabled={progress !== null}>
          {t('common.picture.change')}
        </Button>
        {progress !== null && <LinearProgress variant="determinate" value={progress} aria-label={t('common.picture.uploading')} sx={{ mt: 1 }} />}
        {error && (
          <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
            {error}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
