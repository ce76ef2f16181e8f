// Notification bell (spec 2): the unread count (visible = unread) and a dialog (max 600 px) to
// read them and mark them read. A failure to mark is only logged (spec 7).
import { useState } from 'react';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { notificationsMarkRead, useNotificationsList } from '../../generated/client.gen.ts';
import { formatDateTime } from '../runtime/format.ts';

export function NotificationBell({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { mutate } = useSWRConfig();
  const { data } = useNotificationsList({ params: { userId } }, { refreshInterval: 60_000 });
  const unread = data?.unread ?? 0;
  const items = data?.items ?? [];

  const mark = async (ids: number[] | 'all') => {
    try {
      await notificationsMarkRead({ body: { userId, notificationIds: ids } });
    } catch (error) {
      console.warn('mark-read failed', error);
    }
    await mutate((k) => Array.isArray(k) && k[0] === 'notifications.list');
  };

  return (
    <>
      <IconButton color="inherit" aria-label={t('shell.notifications.open', { count: unread })} onClick={() => setOpen(true)}>
        <Badge badgeContent={unread} color="primary" max={99}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" slotProps={{ paper: { sx: { maxWidth: 600 } } }} aria-labelledby="notifications-title">
        <DialogTitle id="notifications-title">{t('shell.notifications.title')}</DialogTitle>
        <DialogContent dividers>
          {items.length === 0 ? (
            <Typography color="text.secondary">{t('screens.notifications.empty')}</Typography>
          ) : (
            <List disablePadding>
              {items.map((n) => (
                <ListItem
                  key={n.id}
                  divider
                  secondaryAction={
                    n.visible ? (
                      <Button size="small" onClick={() => void mark([n.id])}>
                        {t('screens.notifications.markRead')}
                      </Button>
                    ) : undefined
                  }
                  sx={{ pr: n.visible ? 18 : 2 }}
                >
                  <ListItemText
                    primary={
                      <Box component="span" sx={{ fontWeight: n.visible ? 700 : 400 }}>
                        {n.title}
                      </Box>
                    }
                    secondary={
                      <>
                        {n.message}
                        <Box component="span" sx={{ display: 'block', fontSize: 12 }}>
                          {formatDateTime(n.createdAt)}
                        </Box>
                      </>
                    }
                  />
                </ListItem>
              ))}
            </List>
          )}
        </DialogContent>
        <DialogActions>
          <Button component={RouterLink} to="/Notifications" onClick={() => setOpen(false)}>
            {t('shell.notifications.all')}
          </Button>
          <Button disabled={unread === 0} onClick={() => void mark('all')}>
            {t('screens.notifications.markAll')}
          </Button>
          <Button onClick={() => setOpen(false)}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
