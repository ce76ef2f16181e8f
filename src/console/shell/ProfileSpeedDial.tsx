// Profile speed-dial (spec 2): edit profile, change password, the dashboard when permitted, logout.
import { useState } from 'react';
import Avatar from '@mui/material/Avatar';
import SpeedDial from '@mui/material/SpeedDial';
import SpeedDialAction from '@mui/material/SpeedDialAction';
import Dashboard from '@mui/icons-material/Dashboard';
import Edit from '@mui/icons-material/Edit';
import Key from '@mui/icons-material/Key';
import Logout from '@mui/icons-material/Logout';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { SessionUser } from '../../generated/types.gen.ts';
import { canOpenMenuKey } from './home.ts';
import { logout } from './logout.ts';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]!.toUpperCase())
    .join('');

export function ProfileSpeedDial({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [open, setOpen] = useState(false);
  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };
  const actions = [
    { key: 'edit', icon: <Edit />, label: t('shell.profile.edit'), run: () => go('/profile/User/edit') },
    { key: 'password', icon: <Key />, label: t('shell.profile.password'), run: () => go('/profile/User/password') },
    ...(canOpenMenuKey(user, 'dashboard') ? [{ key: 'dashboard', icon: <Dashboard />, label: t('shell.profile.dashboard'), run: () => go('/User') }] : []),
    {
      key: 'logout',
      icon: <Logout />,
      label: t('shell.logout'),
      run: () => {
        setOpen(false);
        void logout((to) => navigate(to, { replace: true }), () => mutate(() => true, undefined, { revalidate: false }));
      },
    },
  ];
  return (
    <SpeedDial
      // The name starts with the initials the button shows ("DS · Menú de perfil"), for voice control.
      ariaLabel={`${initials(user.fullName || user.email)} · ${t('shell.profile.menu')}`}
      direction="down"
      open={open}
      // Opens on click only (not on hover or focus, which would make the click close it again);
      // closes on click, Escape or leaving by keyboard/click elsewhere.
      onOpen={(_, reason) => reason === 'toggle' && setOpen(true)}
      onClose={(_, reason) => reason !== 'mouseLeave' && setOpen(false)}
      icon={
        <Avatar src={user.profilePic || undefined} alt={user.fullName} sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: 15 }}>
          {initials(user.fullName || user.email)}
        </Avatar>
      }
      FabProps={{ size: 'small', sx: { bgcolor: 'transparent', boxShadow: 'none', '&:hover': { bgcolor: 'rgba(0,0,0,0.08)' } } }}
      sx={{ position: 'relative', '& .MuiSpeedDial-actions': { position: 'absolute', top: 44, right: 0, zIndex: 1300 } }}
    >
      {actions.map((a) => (
        <SpeedDialAction
          key={a.key}
          icon={a.icon}
          onClick={(e) => {
            e.stopPropagation();
            a.run();
          }}
          slotProps={{ tooltip: { title: a.label, placement: 'left' } }}
        />
      ))}
    </SpeedDial>
  );
}
