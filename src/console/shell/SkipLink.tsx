// "Saltar al contenido" (WCAG 2.4.1): the first thing the Tab key reaches on every
// layout, hidden until it has the focus, moving the focus to the screen's <main id="content">.
import { styled } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

export const CONTENT_ID = 'content';

const Link = styled('a')(({ theme }) => ({
  position: 'absolute',
  left: theme.spacing(1),
  top: theme.spacing(1),
  zIndex: theme.zIndex.tooltip + 1,
  padding: theme.spacing(1, 2),
  borderRadius: theme.shape.borderRadius,
  background: theme.palette.background.paper,
  color: theme.palette.primary.dark,
  fontWeight: 700,
  transform: 'translateY(-200%)',
  '&:focus': { transform: 'none', outline: `3px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
}));

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${CONTENT_ID}`}
      onClick={(e) => {
        // The router owns the address: move the focus without changing the URL's hash.
        e.preventDefault();
        document.getElementById(CONTENT_ID)?.focus();
      }}
    >
      {t('shell.skipToContent')}
    </Link>
  );
}
