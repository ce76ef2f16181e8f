// The header (spec 2): menu toggle, page title with optional subtabs, area and responsible
// selectors, notification bell, EN/ES switch and the profile speed-dial. Always one row:
// on a phone (below 600 px) the area and responsible selectors and the language switch move into a
// "more" button, the subtabs scroll, and the title keeps its room (ellipsis only when it must), so
// the header never wraps over the page.
import AppBar from '@mui/material/AppBar';
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import MoreVertIcon from '@mui/icons-material/MoreVert';
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
function Subtabs({ node, narrow }: { node: MenuNode; narrow: boolean }) {
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
      variant={narrow ? 'scrollable' : 'standard'}
      scrollButtons={false}
      sx={narrow ? { minWidth: 0, flex: '0 1 auto', '& .MuiTab-root': { minWidth: 0, px: 1 } } : undefined}
    >
      {subtabs.map((s) => (
        <Tab key={s.key} value={s.key} label={t(s.label)} />
      ))}
    </Tabs>
  );
}

/** On a phone, the header's selectors behind one button. */
function More({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton color="inherit" aria-label={t('shell.header.more')} aria-haspopup="dialog" aria-expanded={!!anchor} onClick={(e) => setAnchor(e.currentTarget)} sx={{ flexShrink: 0 }}>
        <MoreVertIcon />
      </IconButton>
      <Popover open={!!anchor} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        <Stack spacing={2} sx={{ p: 2, minWidth: 240 }} role="dialog" aria-label={t('shell.header.more')}>
          {children}
        </Stack>
      </Popover>
    </>
  );
}

export function Header({ user, node, titleKey, menuOpen, onToggleMenu, offset }: HeaderProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const title = node ? t(node.label) : titleKey ? t(titleKey) : '';
  const isActive = user.state === 'active' && user.company?.state === 'active';
  const selectors = (
    <>
      {isActive && <AreaSelector />}
      <ResponsibleSelector associations={user.associations} clients={user.clients} />
      <LanguageSwitch />
    </>
  );
  return (
    <AppBar position="fixed" elevation={1} sx={{ width: { md: `calc(100% - ${offset}px)` }, ml: { md: `${offset}px` } }}>
      <Toolbar sx={{ gap: narrow ? 0.5 : 1.5, flexWrap: 'nowrap', py: 0.5 }} data-testid="header-row">
        <IconButton edge="start" color="inherit" aria-label={t('shell.menu.toggle')} aria-expanded={menuOpen} onClick={onToggleMenu} sx={{ flexShrink: 0 }}>
          <MenuIcon />
        </IconButton>
        <Typography component="h2" variant="h6" noWrap title={title} sx={{ fontWeight: 700, mr: narrow ? 0.5 : 2, minWidth: 0, flexShrink: 0, maxWidth: narrow ? '45%' : undefined }} data-testid="page-title">
          {title}
        </Typography>
        {node && node.subtabs.length > 0 && <Subtabs node={node} narrow={narrow} />}
        <Box sx={{ flexGrow: 1 }} />
        {narrow ? <More>{selectors}</More> : selectors}
        <NotificationBell userId={user.idUser} />
        <ProfileSpeedDial user={user} />
      </Toolbar>
    </AppBar>
  );
}
