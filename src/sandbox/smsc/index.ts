// The sandbox SMSC (see server.ts): `startSandboxSmsc(options) → { port, stop(), configure(), … }`.
export { startSandboxSmsc } from './server.ts';
export type { SandboxSmsc, SandboxSmscOptions, SandboxSmscModes, SmscMessage, SmscPart, SmscBind, SmscCounters, DestinationRule, ReceiptStat } from './server.ts';
