// A `kind: message` declaration: a title and one translated message with its severity
// ("account disabled", "account being verified"), and the screen's `links` below it (the help
// page's way to write to the provider).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { RouteLink } from '../navigation.tsx';
import { useTranslation } from 'react-i18next';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

export default function MessageScreen(props: ScreenProps) {
  const { t } = useTranslation();
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'message' || !screen.message) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return (
    <ScreenFrame title={t(screen.title)}>
      <Alert severity={screen.severity ?? 'info'} role="status">
        {t(screen.message)}
      </Alert>
      {!!screen.links?.length && (
        <Box component="nav" sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, mt: 3 }}>
          {screen.links.map((l) => (
            <Link key={l.to} component={RouteLink} to={l.to}>
              {t(l.label)}
            </Link>
          ))}
        </Box>
      )}
    </ScreenFrame>
  );
}
