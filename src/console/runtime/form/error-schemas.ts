// Errors from several places (blur checks, server answers) put together per field; apart from the
// schema form so the plain form (PlainForm.tsx) uses it without loading rjsf.
import type { ErrorSchema } from '@rjsf/utils';

export function mergeErrorSchemas(...schemas: (ErrorSchema | undefined)[]): ErrorSchema | undefined {
  const out: Record<string, { __errors: string[] }> = {};
  for (const s of schemas) {
    for (const [field, v] of Object.entries((s ?? {}) as Record<string, { __errors?: string[] }>)) {
      if (!v?.__errors?.length) continue;
      (out[field] ??= { __errors: [] }).__errors.push(...v.__errors);
    }
  }
  return Object.keys(out).length ? (out as ErrorSchema) : undefined;
}
