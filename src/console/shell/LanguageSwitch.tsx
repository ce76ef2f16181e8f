// EN/ES switch (spec 2). Spanish is the default; the choice is saved and restored on reload.
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { languages, setLanguage, type Language } from '../app/i18n.ts';

export function LanguageSwitch({ color = 'inherit' }: { color?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={i18n.language}
      aria-label={t('shell.language.label')}
      onChange={(_, lng: Language | null) => lng && void setLanguage(lng)}
      sx={{ '& .MuiToggleButton-root': { color, borderColor: 'currentColor', px: 1, py: 0.25, fontWeight: 700 }, '& .Mui-selected': { bgcolor: 'rgba(0,0,0,0.14) !important', color: `${color} !important` } }}
    >
      {languages.map((l) => (
        // Named by the code it shows and the language ("ES · Español"): a voice user says what they
        // see (axe "label-content-name-mismatch"; a parenthesised code would not count).
        <ToggleButton key={l} value={l} aria-label={`${l.toUpperCase()} · ${t(`shell.language.${l}`)}`}>
          {l.toUpperCase()}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
