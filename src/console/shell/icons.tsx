// MUI icons by the menu node's `icon` name (config/menu.yaml). Imported one by one so the bundle
// carries only these.
import type { SvgIconComponent } from '@mui/icons-material';
import Assessment from '@mui/icons-material/Assessment';
import Campaign from '@mui/icons-material/Campaign';
import Circle from '@mui/icons-material/CircleOutlined';
import Home from '@mui/icons-material/Home';
import Link from '@mui/icons-material/Link';
import Payments from '@mui/icons-material/Payments';
import Security from '@mui/icons-material/Security';
import Settings from '@mui/icons-material/Settings';
import SmartToy from '@mui/icons-material/SmartToy';
import Sms from '@mui/icons-material/Sms';

const icons: Record<string, SvgIconComponent> = {
  home: Home,
  campaign: Campaign,
  smart_toy: SmartToy,
  payments: Payments,
  assessment: Assessment,
  sms: Sms,
  link: Link,
  settings: Settings,
  security: Security,
};

export function MenuIcon({ name }: { name: string | null }) {
  const Icon = (name && icons[name]) || Circle;
  return <Icon fontSize="small" />;
}
