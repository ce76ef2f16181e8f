// The side menu (spec 2, "Menu and shell"): entries from the user's permissions and roles,
// nested, with MUI icons. Permanent at 960 px and wider, a temporary drawer below.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import { appSettings } from '../../generated/app.gen.ts';
import type { SessionUser } from '../../generated/types.gen.ts';
import { MenuIcon } from './icons.tsx';
import { menuTree, type MenuTreeNode } from './menu-tree.ts';

const within = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

function Entry({ item, depth, onNavigate }: { item: MenuTreeNode; depth: number; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = within(pathname, item.node.path) || item.children.some((c) => within(pathname, c.node.path));
  const [open, setOpen] = useState(active);
  // A group's own entry says what it holds ("Credenciales de API" under "Permisos de API").
  const label = item.own ? t(`${item.node.label}.own`) : t(item.node.label);
  const pad = { pl: 2 + depth * 2 };
  if (item.children.length) {
    return (
      <ListItem disablePadding sx={{ display: 'block' }}>
        <ListItemButton onClick={() => setOpen((o) => !o)} aria-expanded={open} sx={pad}>
          {depth === 0 && (
            <ListItemIcon sx={{ minWidth: 34, color: 'inherit' }}>
              <MenuIcon name={item.node.icon} />
            </ListItemIcon>
          )}
          <ListItemText primary={label} slotProps={{ primary: { noWrap: true, sx: { fontWeight: active ? 700 : 500 } } }} />
          {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        </ListItemButton>
        <Collapse in={open} timeout="auto" unmountOnExit>
          <List dense disablePadding>
            {item.children.map((c) => (
              <Entry key={c.node.key} item={c} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      </ListItem>
    );
  }
  const selected = within(pathname, item.node.path) && !item.own?.siblings.some((p) => within(pathname, p));
  // Each entry is a list item (axe "list": a <ul> holds only <li>), its link or group button inside.
  return (
    <ListItem disablePadding>
      <ListItemButton component={NavLink} to={item.node.path} end={!!item.own} onClick={onNavigate} selected={selected} sx={pad}>
        {depth === 0 && (
          <ListItemIcon sx={{ minWidth: 34, color: 'inherit' }}>
            <MenuIcon name={item.node.icon} />
          </ListItemIcon>
        )}
        <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} />
      </ListItemButton>
    </ListItem>
  );
}

export interface SideMenuProps {
  user: SessionUser;
  width: number;
  /** permanent (wide screens) or temporary (below 960 px). */
  variant: 'permanent' | 'temporary';
  open: boolean;
  onClose: () => void;
}

export function SideMenuList({ user, onNavigate }: { user: SessionUser; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const tree = menuTree(user);
  return (
    <Box component="nav" aria-label={t('shell.menu.label')}>
      <List dense>
        {tree.map((item) => (
          <Entry key={item.node.key} item={item} depth={0} onNavigate={onNavigate} />
        ))}
      </List>
    </Box>
  );
}

const MENU_BACKGROUND = '#2B1D0E';

export function SideMenu({ user, width, variant, open, onClose }: SideMenuProps) {
  return (
    <Drawer
      variant={variant}
      open={open}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      // Permanent: the drawer's own box (a column of the page's row, as tall as the page) carries the
      // menu's colour too, so it reaches the bottom of a page taller than the window (the fixed paper
      // is only as tall as the window); the temporary drawer's box is its modal, left alone.
      sx={{ width: open ? width : 0, flexShrink: 0, ...(variant === 'permanent' ? { bgcolor: MENU_BACKGROUND } : {}), '& .MuiDrawer-paper': { width, boxSizing: 'border-box', bgcolor: MENU_BACKGROUND, color: '#FFF4E0' }, '& .Mui-selected': { bgcolor: 'rgba(255,179,0,0.22) !important' } }}
    >
      <Toolbar sx={{ px: 2 }}>
        <Typography variant="h6" component="div" sx={{ fontWeight: 800, color: '#FFC107' }}>
          {appSettings.product.name}
        </Typography>
      </Toolbar>
      <SideMenuList user={user} onNavigate={variant === 'temporary' ? onClose : undefined} />
    </Drawer>
  );
}
