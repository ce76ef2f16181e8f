// The reduced screen for accounts that are not fully active (spec 2): a toolbar with the
// language switch and logout, and the state message.
import { Suspense } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { appSettings } from '../../../generated/app.gen.ts';
import { LanguageSwitch } from '../LanguageSwitch.tsx';
import { Loading } from '../Loading.tsx';
import { logout } from '../logout.ts';
import { CONTENT_ID, SkipLink } from '../SkipLink.tsx';

export default function ReducedLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  return (
    <Box sx={{ minHeight: '100vh' }} data-layout="reduced">
      <SkipLink />
      <AppBar position="static" elevation={1}>
        <Toolbar sx={{ gap: 1.5 }}>
          <Typography variant="h6" component="div" sx={{ fontWeight: 800, flexGrow: 1 }}>
            {appSettings.product.name}
          </Typography>
          <LanguageSwitch />
          <Button color="inherit" startIcon={<LogoutIcon />} onClick={() => void logout((to) => navigate(to, { replace: true }), () => mutate(() => true, undefined, { revalidate: false }))}>
            {t('shell.logout')}
          </Button>
        </Toolbar>
      </AppBar>
      <Box component="main" id={CONTENT_ID} tabIndex={-1} sx={{ p: 3, pt: 6, outline: 'none' }}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
