// The header (spec 2): menu toggle, page title with optional subtabs, area and responsible
// selectors, notification bell, EN/ES switch and the profile speed-dial.
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { SessionUser } from '../../generated/types.gen.ts';
import { setComponent } from '../api/component.ts';
import { AreaSelector } from './AreaSelector.tsx';
import type { MenuNode } from './home.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { ProfileSpeedDial } from './ProfileSpeedDial.tsx';
import { ResponsibleSelector } from './ResponsibleSelector.tsx';

export interface HeaderProps {
  user: SessionUser;
  /** The menu node of the page (title and subtabs). */
  node?: MenuNode;
  /** A title key when the page is not a menu node. */
  titleKey?: string;
  menuOpen: boolean;
  onToggleMenu: () => void;
  offset: number;
}

/** The selected subtab lives in the URL (?tab=key) so it survives reloads and links. */
function Subtabs({ node }: { node: MenuNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const subtabs = node.subtabs as readonly { id: number; key: string; label: string }[];
  const current = subtabs.find((s) => s.key === params.get('tab')) ?? subtabs[0];
  setComponent({ id: current.id, name: current.key });
  return (
    <Tabs
      value={current.key}
      onChange={(_, key: string) => {
        const next = new URLSearchParams(params);
        next.set('tab', key);
        setParams(next, { replace: true });
      }}
      textColor="inherit"
      indicatorColor="primary"
      aria-label={t(node.label)}
    >
      {subtabs.map((s) => (
        <Tab key={s.key} value={s.key} label={t(s.label)} />
      ))}
    </Tabs>
  );
}

export function Header({ user, node, titleKey, menuOpen, onToggleMenu, offset }: HeaderProps) {
  const { t } = useTranslation();
  const title = node ? t(node.label) : titleKey ? t(titleKey) : '';
  const isActive = user.state === 'active' && user.company?.state === 'active';
  return (
    <AppBar position="fixed" elevation={1} sx={{ width: { md: `calc(100% - ${offset}px)` }, ml: { md: `${offset}px` } }}>
      <Toolbar sx={{ gap: 1.5, flexWrap: 'wrap', py: 0.5 }}>
        <IconButton edge="start" color="inherit" aria-label={t('shell.menu.toggle')} aria-expanded={menuOpen} onClick={onToggleMenu}>
          <MenuIcon />
        </IconButton>
        <Typography component="h2" variant="h6" noWrap sx={{ fontWeight: 700, mr: 2 }} data-testid="page-title">
          {title}
        </Typography>
        {node && node.subtabs.length > 0 && <Subtabs node={node} />}
        <Box sx={{ flexGrow: 1 }} />
        {isActive && <AreaSelector />}
        <ResponsibleSelector associations={user.associations} />
        <NotificationBell userId={user.idUser} />
        <LanguageSwitch />
        <ProfileSpeedDial user={user} />
      </Toolbar>
    </AppBar>
  );
}
