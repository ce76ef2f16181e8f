// File upload (`x-widget: file`) and image upload with preview (`x-widget: image`): the file is
// checked against the accepted types, the size limit and the name rule before anything is sent,
// then uploaded through the declared operation with a progress bar; the answer's url (or id)
// becomes the field's value. A field the form's operation does not take (an area's picture) waits
// for the form's Save instead (upload.ts, DeferredUploads).
import { useRef, useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import UploadFile from '@mui/icons-material/UploadFile';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { Rejections } from '../../cells/RejectionsTable.tsx';
import { useParams } from '../../navigation.tsx';
import { call, type OperationId } from '../../../../generated/client.gen.ts';
import { buildArgs } from '../../../api/args.ts';
import { errorText } from '../../../api/errors.ts';
import { useSession } from '../../../api/session.ts';
import { resolveObject } from '../../expressions.ts';
import { acceptAttribute, deferredFor, fileProblem, INVALID_FILE_KEY, rejectionsOf, uploadedValue, uploadRules, uploadSpec, type Rejection } from '../upload.ts';

function UploadWidget(props: WidgetProps & { image: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const route = useParams();
  const { id, schema, value, onChange, onBlur, disabled, readonly, required, label, rawErrors = [], registry, image } = props;
  const spec = uploadSpec(schema as Record<string, unknown>, image);
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [rejected, setRejected] = useState<{ rows: Rejection[]; total: number } | null>(null);
  const form = ((registry.formContext as { formData?: Record<string, unknown> } | undefined)?.formData ?? {}) as Record<string, unknown>;
  // A field the operation's body does not take is uploaded by the form after its Save.
  const field = id.replace(/^root_/, '').split('_')[0];
  const deferred = deferredFor(registry.formContext, field);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    setRejected(null);
    const bad = fileProblem(file, spec);
    if (bad) {
      setProblem(`${t(INVALID_FILE_KEY)} ${t(`validation.file.${bad.reason}`, { types: bad.types, mb: bad.mb })}`);
      if (input.current) input.current.value = '';
      return;
    }
    if (image && typeof URL.createObjectURL === 'function') setPreview(URL.createObjectURL(file));
    setName(file.name);
    if (deferred) {
      deferred.files.set(field, file);
      onChange(file.name);
      return onBlur(id, file.name);
    }
    if (!spec.operation) return onChange(file.name);
    const body = new FormData();
    body.append('file', file);
    setProgress(0);
    try {
      const params = resolveObject(spec.params, { session: session as unknown as Record<string, unknown>, route, form });
      const answer = await call(spec.operation as OperationId, { ...buildArgs(spec.operation, params), form: body, onUploadProgress: (f: number) => setProgress(Math.round(f * 100)) } as never);
      onChange(uploadedValue(answer, spec, file.name));
      setRejected(rejectionsOf(answer, spec));
    } catch (e) {
      setProblem(errorText(t, e));
      setName(null);
    } finally {
      setProgress(null);
      onBlur(id, value);
    }
  };

  const clear = () => {
    deferred?.files.delete(field);
    setName(null);
    setPreview(null);
    onChange(undefined);
    if (input.current) input.current.value = '';
  };

  const shown = preview ?? (image && typeof value === 'string' && value ? value : null);
  const current = name ?? (typeof value === 'string' && value ? value.split('/').pop() : null);
  const locked = disabled || readonly || progress !== null;
  return (
    <FormControl fullWidth error={rawErrors.length > 0 || !!problem} required={required}>
      <FormLabel htmlFor={id} sx={{ mb: 1 }}>
        {label}
      </FormLabel>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        {image && (
          <Avatar variant="rounded" src={shown ?? undefined} alt={t('common.upload.preview')} sx={{ width: 72, height: 72 }}>
            <ImageOutlined />
          </Avatar>
        )}
        <input ref={input} id={id} type="file" hidden accept={acceptAttribute(spec)} aria-label={label} onChange={(e) => void onFile(e.target.files?.[0])} disabled={locked} />
        <Button variant="outlined" size="small" startIcon={<UploadFile />} onClick={() => input.current?.click()} disabled={locked}>
          {t(image ? 'common.upload.chooseImage' : 'common.upload.choose')}
        </Button>
        {current && (
          <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid={`${id}-file`}>
            {current}
          </Typography>
        )}
        {current && !locked && (
          <IconButton size="small" aria-label={t('common.upload.remove')} onClick={clear}>
            <Close fontSize="small" />
          </IconButton>
        )}
      </Box>
      {progress !== null && <LinearProgress variant="determinate" value={progress} aria-label={t('common.upload.progress')} sx={{ mt: 1 }} />}
      <FormHelperText role={problem ? 'alert' : undefined}>{problem ?? t('validation.file.rules', uploadRules(spec))}</FormHelperText>
      {rejected && rejected.total > 0 && <Rejections {...rejected} enumId={spec.rejected?.enum} />}
    </FormControl>
  );
}

export default function FileWidget(props: WidgetProps) {
  return <UploadWidget {...props} image={false} />;
}

export function ImageWidget(props: WidgetProps) {
  return <UploadWidget {...props} image />;
}
