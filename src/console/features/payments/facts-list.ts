// The label–value list of a purchase (its summary before paying, its result after): labels as wide
// as their words, values in the rest, and a long value (a 24-character gateway reference, an
// invoice) breaks inside the screen instead of pushing the page sideways on a phone.
import type { SxProps, Theme } from '@mui/material/styles';

export const factsListSx: SxProps<Theme> = {
  display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 3, rowGap: 0.5, m: 0,
  '& dd': { m: 0, minWidth: 0, overflowWrap: 'anywhere' },
};
