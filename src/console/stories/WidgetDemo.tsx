// One schema rendered by the schema form, so widgets are chosen by the ranked testers exactly as
// on a screen; the submitted values show in an <output> for the play functions.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { RJSFSchema } from '@rjsf/utils';
import { SchemaForm } from '../runtime/form/SchemaForm.tsx';

export function WidgetDemo({ schema, initial = {} }: { schema: RJSFSchema; initial?: Record<string, unknown> }) {
  const [data, setData] = useState<Record<string, unknown>>(initial);
  const [submitted, setSubmitted] = useState('');
  return (
    <Box sx={{ p: 3, maxWidth: 520 }}>
      <SchemaForm cacheKey={`demo-${JSON.stringify(schema).length}-${Object.keys(schema.properties ?? {}).join()}`} schema={schema} formData={data} onChange={setData} onSubmit={(d) => setSubmitted(JSON.stringify(d))}>
        <Button type="submit" variant="contained" sx={{ mt: 2 }}>
          OK
        </Button>
      </SchemaForm>
      <output data-testid="submitted">{submitted}</output>
      <output data-testid="live" hidden>
        {JSON.stringify(data)}
      </output>
    </Box>
  );
}
