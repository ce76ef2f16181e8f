// Shared pieces of the SMPP tests: a sandbox SMSC on loopback, an adapter bound to it, and a
// sink that records what the adapter reports and lets a test wait for it (no sleeps).
import { SmppAdapter, type SmppAdapterOptions, type SmppChannelConfig } from '../../src/engine/channels/sms/index.ts';
import type { InboundEvent, ReceiptSink, StatusEvent } from '../../src/engine/channel-adapter.ts';
import { startSandboxSmsc, type SandboxSmsc, type SandboxSmscOptions } from '../../src/sandbox/smsc/index.ts';

export class RecordingSink implements ReceiptSink {
  readonly statuses: StatusEvent[] = [];
  readonly inbounds: InboundEvent[] = [];
  private waiters: Array<() => void> = [];

  status(channelId: number, event: StatusEvent) {
    if (channelId !== CHANNEL_ID) throw new Error(`unexpected channel ${channelId}`);
    this.statuses.push(event);
    this.wake();
  }

  inbound(channelId: number, event: InboundEvent) {
    if (channelId !== CHANNEL_ID) throw new Error(`unexpected channel ${channelId}`);
    this.inbounds.push(event);
    this.wake();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once the predicate holds; rejects after the deadline with what was seen. */
  async until(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}: ${this.statuses.length} statuses, ${this.inbounds.length} inbound`);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }
}

export const CHANNEL_ID = 7;
export const ACCOUNT = { systemId: 'colibri', password: 'secreto' };

export interface Rig {
  smsc: SandboxSmsc;
  adapter: SmppAdapter;
  sink: RecordingSink;
  /** Another adapter on the same SMSC (closed by stop()). */
  adapterWith(config: Partial<SmppChannelConfig>, options?: SmppAdapterOptions): SmppAdapter;
  stop(): Promise<void>;
}

export async function startRig(smscOptions: SandboxSmscOptions = {}, config: Partial<SmppChannelConfig> = {}, options: SmppAdapterOptions = {}): Promise<Rig> {
  const smsc = await startSandboxSmsc({ accounts: { [ACCOUNT.systemId]: ACCOUNT.password }, ...smscOptions });
  const sink = new RecordingSink();
  const adapters: SmppAdapter[] = [];
  const adapterWith = (extra: Partial<SmppChannelConfig>, opts: SmppAdapterOptions = {}) => {
    const adapter = new SmppAdapter(
      CHANNEL_ID,
      { host: smsc.host, port: smsc.port, ...ACCOUNT, sender: 'Colibri', tps: null, reconnectInitialMs: 20, reconnectMaxMs: 200, ...extra },
      sink,
      opts,
    );
    adapters.push(adapter);
    return adapter;
  };
  const adapter = adapterWith(config, options);
  return {
    smsc,
    adapter,
    sink,
    adapterWith,
    async stop() {
      await Promise.all(adapters.map((a) => a.close()));
      await smsc.stop();
    },
  };
}

/** n Colombian mobile numbers, distinct, none ending in 0000. */
export function numbers(n: number, start = 3001000001): string[] {
  return Array.from({ length: n }, (_, i) => `+57${start + i}`).map((to) => (to.endsWith('0000') ? to.replace(/0000$/, '0001') : to));
}
