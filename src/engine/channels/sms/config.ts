// What an SMPP channel needs, with the defaults a Colombian aggregator link expects.
// Everything beyond host/port/credentials/sender is optional.

export interface SmppChannelConfig {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** Sender: alphanumeric (≤ 11 characters, TON 5 / NPI 0), a numeric short code, or a long number. */
  sender: string;
  /** Source TON/NPI overrides; by default they follow the sender's kind. */
  sourceTon?: number;
  sourceNpi?: number;
  /** TON/NPI for a numeric short code (SMSC-specific, protocols.md 1.1). Default 3 / 0. */
  shortCodeTon?: number;
  shortCodeNpi?: number;
  /** Submits per second the operator allows; null for no limit. Default 100. */
  tps?: number | null;
  /** Tokens that may pile up while idle. Default tps / 20 (5 at 100 TPS). */
  burst?: number;
  /** Unanswered requests allowed at once. Default 10. */
  window?: number;
  /** How long an answer may take before the session is dropped and re-bound. Default 30 s. */
  responseTimeoutMs?: number;
  /** enquire_link period. Default 30 s; 0 for none. */
  enquireLinkMs?: number;
  /** Reconnect back-off: first delay and cap (exponential, with jitter). Default 500 ms … 30 s. */
  reconnectInitialMs?: number;
  reconnectMaxMs?: number;
  /** After the SMSC refused the credentials, no new bind before this. Default 5 min. */
  bindRefusedRetryMs?: number;
  /** How long a submit waits for a session (bind or reconnect) before answering `retry`. Default 10 s. */
  connectWaitMs?: number;
  /** Throttled (0x58) / queue full (0x14) back-off: first delay and cap. Default 250 ms … 8 s. */
  throttleInitialMs?: number;
  throttleMaxMs?: number;
  /** How long a message keeps being resubmitted internally before the adapter answers `retry`. Default 30 s. */
  throttleGiveUpMs?: number;
  /** close(): how long to wait for answers in flight. Default 5 s. */
  closeTimeoutMs?: number;
  /** submit_sm fields. */
  serviceType?: string;
  validityPeriod?: string;
  registeredDelivery?: number;
  /** Ids kept for receipt matching. Default 200,000. */
  maxTrackedIds?: number;
}

export type ResolvedSmppConfig = Required<Omit<SmppChannelConfig, 'sourceTon' | 'sourceNpi' | 'burst' | 'tps'>> &
  Pick<SmppChannelConfig, 'sourceTon' | 'sourceNpi' | 'burst'> & { tps: number | null };

export function resolveConfig(config: SmppChannelConfig): ResolvedSmppConfig {
  const problems: string[] = [];
  if (!config.host) problems.push('host');
  if (!(Number.isInteger(config.port) && config.port > 0 && config.port < 65536)) problems.push('port');
  // SMPP 3.4 says 15 and 8 characters; real SMSCs (Jasmin: 30) take longer ones, so only sanity.
  if (!config.systemId || config.systemId.length > 64) problems.push('systemId');
  if (typeof config.password !== 'string' || config.password.length > 64) problems.push('password');
  if (!config.sender) problems.push('sender');
  if (config.window !== undefined && !(config.window >= 1)) problems.push('window');
  if (problems.length) throw new RangeError(`invalid SMPP channel configuration: ${problems.join(', ')}`);
  return {
    host: config.host,
    port: config.port,
    systemId: config.systemId,
    password: config.password,
    systemType: config.systemType ?? '',
    sender: config.sender,
    sourceTon: config.sourceTon,
    sourceNpi: config.sourceNpi,
    shortCodeTon: config.shortCodeTon ?? 3,
    shortCodeNpi: config.shortCodeNpi ?? 0,
    tps: config.tps === undefined ? 100 : config.tps,
    burst: config.burst,
    window: config.window ?? 10,
    responseTimeoutMs: config.responseTimeoutMs ?? 30_000,
    enquireLinkMs: config.enquireLinkMs ?? 30_000,
    reconnectInitialMs: config.reconnectInitialMs ?? 500,
    reconnectMaxMs: config.reconnectMaxMs ?? 30_000,
    bindRefusedRetryMs: config.bindRefusedRetryMs ?? 5 * 60_000,
    connectWaitMs: config.connectWaitMs ?? 10_000,
    throttleInitialMs: config.throttleInitialMs ?? 250,
    throttleMaxMs: config.throttleMaxMs ?? 8_000,
    throttleGiveUpMs: config.throttleGiveUpMs ?? 30_000,
    closeTimeoutMs: config.closeTimeoutMs ?? 5_000,
    serviceType: config.serviceType ?? '',
    validityPeriod: config.validityPeriod ?? '',
    registeredDelivery: config.registeredDelivery ?? 1,
    maxTrackedIds: config.maxTrackedIds ?? 200_000,
  };
}

/** Source TON/NPI and address for the sender (protocols.md 1.1). */
export function sourceAddress(config: ResolvedSmppConfig): { ton: number; npi: number; addr: string } {
  const sender = config.sender.trim();
  const digits = sender.replace(/^\+/, '');
  let ton: number;
  let npi: number;
  let addr = sender;
  if (!/^\d+$/.test(digits)) [ton, npi] = [5, 0];
  else if (digits.length <= 8) [ton, npi] = [config.shortCodeTon, config.shortCodeNpi];
  else [ton, npi, addr] = [1, 1, digits];
  return { ton: config.sourceTon ?? ton, npi: config.sourceNpi ?? npi, addr };
}
