// Meta's Graph API error answer (WhatsApp Cloud API and Messenger Send API share it):
//   {"error":{"message","type","code","error_subcode"?,"error_data"?:{"details"},"fbtrace_id"}}
// Meta says to branch on `code` (and `error_data.details`), never on the message text.

export interface GraphError {
  code: number;
  subcode?: number;
  message: string;
  details?: string;
  traceId?: string;
}

export function parseGraphError(body: unknown): GraphError | null {
  if (!body || typeof body !== 'object') return null;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return null;
  const e = error as Record<string, unknown>;
  const code = typeof e.code === 'number' ? e.code : Number(e.code);
  if (!Number.isFinite(code)) return null;
  const data = e.error_data as { details?: unknown } | undefined;
  return {
    code,
    subcode: typeof e.error_subcode === 'number' ? e.error_subcode : undefined,
    message: typeof e.message === 'string' ? e.message : '',
    details: typeof data?.details === 'string' ? data.details : undefined,
    traceId: typeof e.fbtrace_id === 'string' ? e.fbtrace_id : undefined,
  };
}

/** A short reason for logs and reports: code, Meta's text and trace id (never the token). */
export function describeGraphError(error: GraphError): string {
  const text = error.details ?? error.message;
  return `Graph error ${error.code}${error.subcode ? `/${error.subcode}` : ''}: ${text}${error.traceId ? ` (fbtrace ${error.traceId})` : ''}`;
}
