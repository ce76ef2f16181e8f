// The plain sign-in layout: a centred card with the brand, the language switch, and the
// "session expired" notice when the 401 rule sent the user here (?expired=true). A record to read
// (a detail screen: a certificate's public verification) gets a wider card than a form.
import { Suspense, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { appSettings } from '../../../generated/app.gen.ts';
import { brand } from '../../app/theme.ts';
import { LanguageSwitch } from '../LanguageSwitch.tsx';
import { Loading } from '../Loading.tsx';
import { useSearchParams } from '../../runtime/navigation.tsx';
import { useCurrentRoute } from '../route-info.ts';
import { CONTENT_ID, SkipLink } from '../SkipLink.tsx';

export default function PlainLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const maxWidth = useCurrentRoute()?.kind === 'detail' ? 880 : 520;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', background: `linear-gradient(160deg, #FFF8E1 0%, #FFE0B2 100%)`, px: 2, py: 4 }} data-layout="plain">
      <SkipLink />
      <Box sx={{ width: '100%', maxWidth, display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography component="div" variant="h5" sx={{ fontWeight: 800, color: brand.ink }}>
          {appSettings.product.name}
        </Typography>
        <LanguageSwitch color={brand.ink} />
      </Box>
      <Paper component="main" id={CONTENT_ID} tabIndex={-1} elevation={3} sx={{ width: '100%', maxWidth, p: { xs: 3, sm: 4 }, borderTop: `6px solid ${brand.orange}`, outline: 'none' }}>
        {params.get('expired') === 'true' && (
          <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
            {t('errors.client.sessionExpired')}
          </Alert>
        )}
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </Paper>
    </Box>
  );
}
