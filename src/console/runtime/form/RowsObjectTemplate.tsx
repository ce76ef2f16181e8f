// Field layout from the declaration's `rows: [[name, documentType], [email, phone]]` (compiled to
// `ui:rows`): fields of a row sit side by side and stack on narrow screens. Fields in no row follow,
// one per line. Without `ui:rows` the theme's own template renders.
import Box from '@mui/material/Box';
import { Templates } from '@rjsf/mui';
import type { ObjectFieldTemplateProps } from '@rjsf/utils';

const MuiObjectFieldTemplate = Templates.ObjectFieldTemplate!;

export default function RowsObjectTemplate(props: ObjectFieldTemplateProps) {
  const rows = (props.uiSchema?.['ui:rows'] as string[][] | undefined) ?? null;
  if (!rows) return <MuiObjectFieldTemplate {...props} />;
  const byName = new Map(props.properties.map((p) => [p.name, p]));
  const placed = new Set(rows.flat());
  const rest = props.properties.filter((p) => !placed.has(p.name));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 1.25 }}>
      {rows.map((row) => {
        const cells = row.map((n) => byName.get(n)).filter((p) => p && !p.hidden);
        if (!cells.length) return null;
        return (
          <Box key={row.join()} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: `repeat(${cells.length}, minmax(0, 1fr))` } }}>
            {cells.map((p) => (
              <Box key={p!.name}>{p!.content}</Box>
            ))}
          </Box>
        );
      })}
      {rest.map((p) => (p.hidden ? p.content : <Box key={p.name}>{p.content}</Box>))}
    </Box>
  );
}
