// Providers every screen needs: MUI theme, i18n, SWR.
import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { I18nextProvider } from 'react-i18next';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { i18n } from './i18n.ts';
import useMediaQuery from '@mui/material/useMediaQuery';
import { REDUCED_MOTION, reducedMotionTheme, theme } from './theme.ts';

const swrDefaults: SWRConfiguration = { revalidateOnFocus: false, shouldRetryOnError: false };

export function AppProviders({ children, swr }: { children: ReactNode; swr?: SWRConfiguration }) {
  const still = useMediaQuery(REDUCED_MOTION, { noSsr: true });
  return (
    <ThemeProvider theme={still ? reducedMotionTheme : theme}>
      <CssBaseline />
      <I18nextProvider i18n={i18n}>
        <SWRConfig value={{ ...swrDefaults, ...swr }}>{children}</SWRConfig>
      </I18nextProvider>
    </ThemeProvider>
  );
}
