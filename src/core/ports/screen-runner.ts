// How a scheduled report asks a report screen's operation as a person of the company: one request,
// as they would make it from the screen (the server's implementation goes through its own routes:
// src/server/modules/reportCenter/report-screen-runner.ts). The runner proves nothing itself; the
// routes it reaches authenticate, authorise, validate and scope the request.

/** One request to an operation, as the person `userId`, in `language` (its answer's words). */
export interface ScreenCall { userId: number; method: string; path: string; body: Record<string, unknown>; language: string }

/** The operation's status and JSON answer (its catalogue error when it refused). */
export interface ScreenAnswer { status: number; json: unknown }

export type ScreenRunner = (call: ScreenCall) => Promise<ScreenAnswer>;
