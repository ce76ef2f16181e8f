// The default (200 px menu) and second (170 px menu) layouts. At 960 px and wider the menu is a
// permanent drawer that the toggle hides; below, it collapses into a temporary drawer.
import { Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Outlet } from 'react-router-dom';
import { useRolesList } from '../../../generated/client.gen.ts';
import { useSession } from '../../api/session.ts';
import { MENU_BREAKPOINT } from '../../app/theme.ts';
import { Header } from '../Header.tsx';
import { Loading } from '../Loading.tsx';
import { SideMenu } from '../SideMenu.tsx';
import { CONTENT_ID, SkipLink } from '../SkipLink.tsx';
import { useCurrentNode, useCurrentRoute } from '../route-info.ts';
import { useChannelTypeWords } from '../channel-type-words.ts';

export interface DefaultLayoutProps {
  menuWidth: number;
  /** Stories only: render as below 960 px regardless of the window. */
  narrow?: boolean;
}

export default function DefaultLayout({ menuWidth, narrow }: DefaultLayoutProps) {
  const user = useSession();
  const wideQuery = useMediaQuery(MENU_BREAKPOINT, { noSsr: true });
  const wide = narrow ? false : wideQuery;
  const [collapsed, setCollapsed] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const node = useCurrentNode();
  const route = useCurrentRoute();
  // Spec 4: once active, a superadmin loads the role list (kept in the SWR cache for the screens).
  useRolesList(user?.roles.includes('superadmin') ? {} : null);
  // The names of channel types registered at run time, beside the locales' (channel-type-words.ts).
  useChannelTypeWords(user);
  if (!user) return null;
  const permanentShown = wide && !collapsed;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }} data-layout={menuWidth === 170 ? 'second' : 'default'}>
      <SkipLink />
      <Header
        user={user}
        node={node}
        titleKey={route?.title ?? undefined}
        menuOpen={wide ? permanentShown : mobileOpen}
        onToggleMenu={() => (wide ? setCollapsed((c) => !c) : setMobileOpen((o) => !o))}
        offset={permanentShown ? menuWidth : 0}
      />
      {wide ? (
        permanentShown && <SideMenu user={user} width={menuWidth} variant="permanent" open onClose={() => setCollapsed(true)} />
      ) : (
        <SideMenu user={user} width={menuWidth} variant="temporary" open={mobileOpen} onClose={() => setMobileOpen(false)} />
      )}
      <Box component="main" id={CONTENT_ID} tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 }, outline: 'none' }}>
        <Toolbar sx={{ mb: 1 }} />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
