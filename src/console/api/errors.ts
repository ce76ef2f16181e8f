// Error answers `{ code, message, errors? }` (spec 8) and how the console words them: the
// translated text for the code, else the mapped text for a known server message, else the
// server's own message. A failed connection is the client error `network`.
import { clientErrors, messageErrors, serverErrors } from '../../generated/errors.gen.ts';

export interface FieldProblem { field?: string; code?: string; message?: string }

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldProblem[];
  readonly operation: string;

  constructor(init: { status: number; code: string; message: string; errors?: FieldProblem[]; operation: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors ?? [];
    this.operation = init.operation;
  }

  get isNetwork(): boolean {
    return this.code === NETWORK;
  }
}

export const NETWORK = 'network';

type ServerEntry = { key: string; field: string | null; display: string };
const server = serverErrors as unknown as Record<string, ServerEntry>;

export const serverEntry = (code: string | undefined): ServerEntry | undefined => (code ? server[code] : undefined);

/** The i18n key for an error, or null when only the server's own words are left. */
export function errorKey(code: string | undefined, message: string | undefined): string | null {
  if (code === NETWORK) return clientErrors.network;
  const entry = serverEntry(code);
  if (entry) return entry.key;
  const mapped = messageErrors.find((m) => m.match === message);
  return mapped ? mapped.key : null;
}

import type { TFunction } from 'i18next';

type T = TFunction;

/** The text a user reads for an error. `fallbackKey` replaces an unknown server message (screen onErrorDefault). */
export function errorText(t: T, error: unknown, fallbackKey?: string): string {
  if (error instanceof ApiError) {
    const key = errorKey(error.code, error.message);
    // An unknown failure (m1) on a screen with its own default words uses them (register, spec 8).
    if (key && !(error.code === 'm1' && fallbackKey)) return t(key);
    if (fallbackKey) return t(fallbackKey);
    return error.message || t(serverErrors.m1.key);
  }
  if (fallbackKey) return t(fallbackKey);
  return error instanceof Error && error.message ? error.message : t(serverErrors.m1.key);
}

/** The text of one field problem inside an error answer. */
export function problemText(t: T, problem: FieldProblem): string {
  const key = errorKey(problem.code, problem.message);
  return key ? t(key) : problem.message ?? '';
}
