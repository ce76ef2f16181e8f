// Brand colours yellow to orange (spec 9) with text colours chosen for WCAG AA contrast:
// white on the primary orange is 5.2:1, dark brown on the amber and on the bar gradient is > 6:1.
import { createTheme, type ThemeOptions } from '@mui/material/styles';

export const brand = {
  yellow: '#FFC107',
  orange: '#FF7A00',
  ink: '#1F1300',
  gradient: 'linear-gradient(90deg, #FFC107 0%, #FF9800 55%, #FF7A00 100%)',
};

/** The focus ring: the dark primary, > 3:1 against the page, the paper and the bar gradient. */
const focusRing = '#7C2D12';

const options: ThemeOptions = {
  palette: {
    primary: { main: '#C2410C', dark: '#9A3412', light: '#EA580C', contrastText: '#FFFFFF' },
    secondary: { main: '#FFB300', contrastText: brand.ink },
    // Status colours dark enough for white text and for text on the page (>= 4.5:1, axe
    // "color-contrast"): MUI's default orange and light blue are 3:1 and 4:1 with white.
    warning: { main: '#B45309', contrastText: '#FFFFFF' },
    info: { main: '#0369A1', contrastText: '#FFFFFF' },
    error: { main: '#B91C1C', contrastText: '#FFFFFF' },
    success: { main: '#15803D', contrastText: '#FFFFFF' },
    background: { default: '#FFFBF2', paper: '#FFFFFF' },
    text: { primary: '#1F1A14', secondary: '#5C4A33' },
  },
  shape: { borderRadius: 10 },
  typography: { fontFamily: '"Inter", "Roboto", "Helvetica Neue", Arial, sans-serif', button: { textTransform: 'none', fontWeight: 600 } },
  breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920 } },
  components: {
    MuiAppBar: { styleOverrides: { root: { backgroundImage: brand.gradient, color: brand.ink } } },
    MuiButton: { defaultProps: { disableElevation: true } },
    // A visible focus ring on every control reached by keyboard (WCAG 2.4.7): the ripple
    // alone is too faint on the brand colours.
    MuiCssBaseline: { styleOverrides: { 'a:focus-visible, tr:focus-visible': { outline: `3px solid ${focusRing}`, outlineOffset: 2 } } },
    // A disabled field's help still has to be read (a hint such as "pick a client first").
    MuiFormHelperText: { styleOverrides: { root: { '&.Mui-disabled': { color: '#5C4A33' } } } },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: `3px solid ${focusRing}`, outlineOffset: 2 } } } },
  },
};

export const theme = createTheme(options);

/**
 * The same theme without motion, for people whose system asks for less (WCAG 2.3.3): no
 * transitions and menus that open at once. A menu group that slides open for 300 ms also moves
 * the entries under a pointer that is already pressing one, and the press lands elsewhere.
 */
export const reducedMotionTheme = createTheme({
  ...options,
  transitions: { create: () => 'none' },
  components: { ...options.components, MuiCollapse: { defaultProps: { timeout: 0 } } },
});

export const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Below this width the side menu collapses behind a toggle (spec 2 and 9). */
export const MENU_BREAKPOINT = '(min-width:960px)';
