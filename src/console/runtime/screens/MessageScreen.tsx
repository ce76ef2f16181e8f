// A `kind: message` declaration: a title and one translated message with its severity
// ("account disabled", "account being verified").
import Alert from '@mui/material/Alert';
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
    </ScreenFrame>
  );
}
