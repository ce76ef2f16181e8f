// The messaging engine inside the server process (ARCHITECTURE 5–6): the dispatch worker, the
// database receipt sink, the channel adapters built from the channels' rows, and, in sandbox
// mode (`npm start` on the embedded database), the sandbox SMSC — a real SMPP server on
// loopback — that the demo's SMS channels bind to, and the Graph (WhatsApp, Messenger) and RBM
// (RCS) stand-ins that the HTTP channels without a baseUrl talk to (each channel type's
// definition in src/engine/channels wires its adapter and its stand-in); the
// status-callback deliverer (callbacks.ts). More worker processes can share one PostgreSQL: each
// claims with SKIP LOCKED.
import type { Kysely } from 'kysely';
import type { ChannelAdapter } from '../../engine/channel-adapter.ts';
import { channelDefinition, channelDefinitions, companySmsChannel, type ChannelContext, type StandIns, type HttpAdapterOptions } from '../../engine/channels/index.ts';
import { Dispatcher, type DispatcherOptions } from '../../engine/dispatcher.ts';
import { databaseSink, type DatabaseSink } from '../../engine/receipts.ts';
import type { Database } from '../../engine/database.ts';
import { startStandIns, type GraphSandbox, type GraphSandboxOptions, type RbmSandbox, type RbmSandboxOptions, type SandboxSmsc, type SandboxSmscOptions } from '../composition.ts';
import type { SecretBox } from '../security/secrets.ts';
import type { MessagingHooks } from '../context.ts';
import { startCallbackDeliverer, type CallbackDeliverer, type CallbackDelivererOptions } from './callbacks.ts';
import type { OutboundPolicy } from '../security/outbound-guard.ts';
import { routeInbound } from '../../engine/inbound.ts';
import { startConversations, type Conversations } from '../../engine/conversations/index.ts';
import { whatsappTemplateGateway } from './whatsapp-templates.ts';
import { companySendWindow } from './send-window.ts';
import { endpointOf } from '../modules/channels/records.ts';

export interface MessagingOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  /** Start the sandbox SMSC; SMS channels without connection settings bind to it. */
  sandbox: boolean;
  /** Where status callbacks may go (outbound-guard.ts); default public addresses only. */
  outbound?: OutboundPolicy;
  smsc?: SandboxSmscOptions;
  dispatcher?: Partial<Omit<DispatcherOptions, 'db' | 'adapters' | 'sendWindow'>>;
  /** Claim and send messages and deliver status callbacks here (default true). False: an API
   *  server whose messages `npm run worker` processes send (ENGINE_IN_SERVER=off); it keeps the
   *  receipt sink for the providers' webhooks. */
  dispatch?: boolean;
  /** Extra SMPP settings for every adapter (tests: shorter timeouts). */
  smpp?: Record<string, unknown>;
  /** Sandbox mode: options of the Graph (WhatsApp, Messenger) and RBM (RCS) stand-ins. */
  graph?: GraphSandboxOptions;
  rbm?: RbmSandboxOptions;
  /** Timeouts and concurrency of the HTTP channel adapters. */
  http?: HttpAdapterOptions;
  /** The status-callback deliverer; false: none in this process. */
  callbacks?: false | Omit<CallbackDelivererOptions, 'db' | 'secrets' | 'log'>;
  log?: (message: string, detail?: unknown) => void;
}

export interface MessagingRuntime {
  hooks: MessagingHooks;
  dispatcher: Dispatcher;
  sink: DatabaseSink;
  smsc: SandboxSmsc | null;
  /** Sandbox mode: the Graph and RBM stand-ins. */
  graph: GraphSandbox | null;
  rbm: RbmSandbox | null;
  callbacks: CallbackDeliverer | null;
  /** Chatbot conversations: messages in, no-reply timers. */
  conversations: Conversations;
  /**
   * Our server's URL, known once it listens: the stand-ins post their webhooks there. Registers
   * every enabled HTTP channel that uses a stand-in (channels added later register when their
   * adapter is built).
   */
  setPublicUrl(url: string): Promise<void>;
  /** Drops a channel's adapter (its settings changed); the next message builds a new one. */
  forget(channelId: number): Promise<void>;
  close(): Promise<void>;
}

export async function startMessaging(options: MessagingOptions): Promise<MessagingRuntime> {
  const db = options.db;
  const log = options.log ?? (() => {});
  // The SMSC reads this object at every bind, so channels added later get an account too.
  const smscAccounts: Record<string, string> = { ...(options.smsc?.accounts ?? {}) };
  const { smsc, graph, rbm } = await startStandIns(options.sandbox, { smsc: { ...options.smsc, accounts: smscAccounts }, graph: options.graph, rbm: options.rbm });
  let publicUrl: string | null = null;
  // Turns enqueue replies (the dispatcher, made below) and integration calls (the process's job
  // runner, which sets hooks.wakeJobs once it runs).
  const conversations = startConversations({ db, wake: () => dispatcher.wake(), wakeJobs: () => hooks.wakeJobs?.(), log });
  const sink = databaseSink({ db, inbound: (channelId, event) => routeInbound(db, channelId, event, conversations) });
  const adapters = new Map<number, Promise<ChannelAdapter | null>>();

  const standIns: StandIns = {
    smsc: smsc && { host: smsc.host, port: smsc.port, addAccount: (systemId, password) => { smscAccounts[systemId] = password; }, injectMo: (mo) => smsc.injectMo(mo) },
    graph,
    rbm,
  };
  const context: ChannelContext = { db, sink, standIns, publicUrl: () => publicUrl, http: options.http, smpp: options.smpp };

  /** The adapter of an enabled channel, from its type's definition (src/engine/channels/registry.ts). */
  async function build(channelId: number): Promise<ChannelAdapter | null> {
    const row = await options.db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
    if (!row || !row.enabled) return null;
    const definition = channelDefinition(row.platform);
    const adapter = definition?.createAdapter(endpointOf(options.secrets, row), {
      ...context,
      http: { ...options.http, onAlert: (alert) => log(`channel ${row.id}: ${alert.platform} ${alert.kind}`, alert.reason) },
    }) ?? null;
    // An SMS channel without a host has no adapter outside sandbox mode; that is not news.
    if (!adapter && definition?.webhook) log(`channel ${row.id}: ${row.platform} settings are incomplete; its messages fail with 92`);
    return adapter;
  }

  const registry = {
    adapterFor(channelId: number) {
      let adapter = adapters.get(channelId);
      if (!adapter) {
        adapter = build(channelId).catch((error) => { log(`channel ${channelId}: adapter failed to start`, error); adapters.delete(channelId); return null; });
        adapters.set(channelId, adapter);
      }
      return adapter;
    },
    fallbackFor: (companyId: number) => companySmsChannel(db, companyId),
  };
  const sendWindow = companySendWindow(db);
  const dispatcher = new Dispatcher({ db, adapters: registry, sendWindow, log, ...options.dispatcher });
  const dispatch = options.dispatch ?? true;
  if (dispatch) await dispatcher.start();
  if (dispatch) conversations.start();
  const callbacks = options.callbacks === false || !dispatch ? null : startCallbackDeliverer({ db, secrets: options.secrets, log, outbound: options.outbound, ...options.callbacks });

  const hooks: MessagingHooks = {
    wake: () => dispatcher.wake(), sendWindow, shortBaseUrls: [], whatsappTemplates: whatsappTemplateGateway({ db: options.db, secrets: options.secrets, context }, { timeoutMs: options.http?.timeoutMs }),
    // Sandbox: a person's message to one of the company's channels, through the channel's stand-in.
    async simulateInbound(channelId, from, text) {
      const row = await db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
      if (!row?.enabled) return false;
      return (await channelDefinition(row.platform)?.simulateInbound?.(endpointOf(options.secrets, row), context, from, text)) ?? false;
    },
  };
  return {
    hooks,
    dispatcher,
    conversations,
    sink,
    smsc,
    graph,
    rbm,
    callbacks,
    async setPublicUrl(url) {
      publicUrl = url.replace(/\/+$/, '');
      if (!graph && !rbm) return;
      const wired = channelDefinitions().filter((d) => d.registerWithStandIn).map((d) => d.platform);
      const channels = await options.db.selectFrom('channels').selectAll().where('platform', 'in', wired).where('enabled', '=', true).execute();
      for (const channel of channels) {
        try {
          channelDefinition(channel.platform)!.registerWithStandIn!(endpointOf(options.secrets, channel), context);
        } catch (error) {
          log(`channel ${channel.id}: not registered with its stand-in`, (error as Error).message);
        }
      }
    },
    async forget(channelId) {
      const adapter = await adapters.get(channelId);
      adapters.delete(channelId);
      await adapter?.close();
    },
    async close() {
      await conversations.stop();
      await dispatcher.stop();
      await Promise.all([...adapters.values()].map(async (a) => (await a)?.close()));
      await sink.close();
      await callbacks?.stop();
      await smsc?.stop();
      await graph?.stop();
      await rbm?.stop();
    },
  };
}
