// Unknown routes (spec 2): "This page could not be found" and a link home.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import SearchOff from '@mui/icons-material/SearchOff';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, p: 3, textAlign: 'center' }}>
      <SearchOff sx={{ fontSize: 64, color: 'primary.main' }} />
      <Typography component="h1" variant="h4" sx={{ fontWeight: 800 }}>
        404
      </Typography>
      <Typography>{t('errors.client.pageNotFound')}</Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {t('shell.goHome')}
      </Button>
    </Box>
  );
}
