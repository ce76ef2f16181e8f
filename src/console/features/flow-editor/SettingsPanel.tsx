// The side panel: the selected step's title and the settings its kind takes (src/core/flows/steps.ts),
// each edited as setting-fields.ts says, required ones marked, the rules it breaks listed.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { stepKinds, type Setting } from '../../../core/flows/steps.ts';
import type { FlowProblem } from '../../../core/flows/validate.ts';
import type { FlowResponse, FlowStep, FlowStepSettings } from '../../../generated/types.gen.ts';
import { settingFields } from './setting-fields.ts';

interface Props {
  step: FlowStep;
  problems: FlowProblem[];
  onChange(step: FlowStep): void;
  onDelete(): void;
}

const words = (text: string) => text.split(',').map((w) => w.trim()).filter(Boolean);

function ResponsesField({ value, onChange, label }: { value: FlowResponse[]; onChange(v: FlowResponse[]): void; label: string }) {
  const { t } = useTranslation();
  const set = (i: number, r: Partial<FlowResponse>) => onChange(value.map((x, j) => (j === i ? { ...x, ...r } : x)));
  const add = () => {
    const ids = new Set(value.map((r) => r.id));
    let n = value.length + 1;
    while (ids.has(`r${n}`)) n += 1;
    onChange([...value, { id: `r${n}`, label: '', keywords: [] }]);
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2">{label}</Typography>
      {value.map((r, i) => (
        <Stack key={r.id} direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
          <Typography sx={{ minWidth: 20 }}>{i + 1}</Typography>
          <TextField size="small" label={t('flowEditor.responseLabel')} value={r.label} onChange={(e) => set(i, { label: e.target.value })} slotProps={{ htmlInput: { maxLength: 80 } }} />
          <TextField size="small" label={t('flowEditor.responseKeywords')} value={r.keywords.join(', ')} onChange={(e) => set(i, { keywords: words(e.target.value) })} />
          <IconButton aria-label={t('flowEditor.removeResponse', { n: i + 1 })} onClick={() => onChange(value.filter((_, j) => j !== i))}>×</IconButton>
        </Stack>
      ))}
      <Button size="small" onClick={add} sx={{ mt: 1 }}>{t('flowEditor.addResponse')}</Button>
    </Box>
  );
}

export function SettingsPanel({ step, problems, onChange, onDelete }: Props) {
  const { t } = useTranslation();
  const kind = stepKinds[step.type];
  const required = new Set(kind.required(step.settings));
  const set = (name: Setting, value: unknown) => {
    const settings: FlowStepSettings = { ...step.settings };
    if (value === '' || value === undefined || (Array.isArray(value) && value.length === 0)) delete (settings as Record<string, unknown>)[name];
    else (settings as Record<string, unknown>)[name] = value;
    onChange({ ...step, settings });
  };
  const bad = (name: Setting) => problems.some((p) => p.field === name || p.field?.startsWith(`${name}.`));
  return (
    <Stack spacing={2} component="section" aria-label={t('flowEditor.settings')}>
      <Typography variant="h6" component="h2">{t(`enums.flow-step-type.${step.type}`)}</Typography>
      <TextField size="small" label={t('flowEditor.stepTitle')} value={step.title ?? ''} onChange={(e) => onChange({ ...step, title: e.target.value || undefined })} slotProps={{ htmlInput: { maxLength: 80 } }} />
      {kind.settings.map((name) => {
        const field = settingFields[name];
        const label = t(`flowEditor.setting.${name}`);
        const value = step.settings[name];
        const common = { key: name, size: 'small' as const, label, required: required.has(name), error: bad(name) };
        switch (field.kind) {
          case 'boolean':
            return <FormControlLabel key={name} control={<Checkbox checked={value === true} onChange={(e) => set(name, e.target.checked || undefined)} />} label={label} />;
          case 'integer':
            return <TextField {...common} type="number" value={value ?? ''} onChange={(e) => set(name, e.target.value === '' ? undefined : Math.trunc(Number(e.target.value)))} slotProps={{ htmlInput: { min: 0, max: field.max } }} />;
          case 'words':
            return <TextField {...common} value={((value as string[] | undefined) ?? []).join(', ')} onChange={(e) => set(name, words(e.target.value))} helperText={t('flowEditor.commaSeparated')} />;
          case 'responses':
            return <ResponsesField key={name} label={label} value={(value as FlowResponse[] | undefined) ?? []} onChange={(v) => set(name, v)} />;
          case 'choice':
            return (
              <TextField {...common} select value={value ?? ''} onChange={(e) => set(name, e.target.value || undefined)}>
                <MenuItem value="">{t('flowEditor.none')}</MenuItem>
                {field.options.map((o) => <MenuItem key={o} value={o}>{t(`enums.${field.enumId}.${o}`)}</MenuItem>)}
              </TextField>
            );
          case 'multiline':
            return <TextField {...common} multiline minRows={2} value={value ?? ''} onChange={(e) => set(name, e.target.value)} slotProps={{ htmlInput: { maxLength: field.max } }} />;
          case 'line':
            return <TextField {...common} value={value ?? ''} onChange={(e) => set(name, e.target.value)} slotProps={{ htmlInput: { maxLength: field.max } }} />;
        }
      })}
      {problems.length > 0 && (
        <Box role="alert">
          {problems.map((p, i) => <Typography key={i} color="error" variant="body2">{t(`enums.flow-rule.${p.rule}`)}</Typography>)}
        </Box>
      )}
      <Button color="error" variant="outlined" onClick={onDelete}>{t('flowEditor.deleteStep')}</Button>
    </Stack>
  );
}
