import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Title, optional description and content of a screen. */
export function ScreenFrame({ title, description, children, maxWidth = 640 }: { title: string; description?: string; children: ReactNode; maxWidth?: number | string }) {
  return (
    <Box component="section" sx={{ width: '100%', maxWidth, mx: 'auto' }}>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700, mb: description ? 1 : 2 }}>
        {title}
      </Typography>
      {description && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
      )}
      {children}
    </Box>
  );
}
