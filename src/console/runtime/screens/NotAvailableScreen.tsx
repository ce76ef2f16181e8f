// Menu entries whose screen is not built yet show this, never a blank page (section 2).
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Construction from '@mui/icons-material/Construction';
import { useTranslation } from 'react-i18next';
import { RouteLink } from '../navigation.tsx';
import { menuNodes } from '../../../generated/menu.gen.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import type { ScreenProps } from '../screen-types.ts';

export default function NotAvailableScreen({ menuKey }: ScreenProps) {
  const { t } = useTranslation();
  const node = menuNodes.find((n) => n.key === menuKey);
  return (
    <ScreenFrame title={node ? t(node.label) : t('shell.notAvailable.title')}>
      <Alert severity="info" icon={<Construction />} role="status" sx={{ mb: 2 }}>
        {t('shell.notAvailable.message')}
      </Alert>
      <Button component={RouteLink} to="/" variant="outlined">
        {t('shell.goHome')}
      </Button>
    </ScreenFrame>
  );
}
