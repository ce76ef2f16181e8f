// What the channel definitions need from the sandbox's stand-ins (src/sandbox/smsc, graph, rbm):
// the engine may not import the sandbox, so it names the shapes and the server's composition
// root passes the running stand-ins, which have them.

export interface SmscStandIn {
  host: string;
  port: number;
  /** Lets a system id bind with this password (an account per channel). */
  addAccount(systemId: string, password: string): void;
  /** A handset's message (deliver_sm) to the channel bound as `systemId`. */
  injectMo(mo: { from: string; to: string; text: string; systemId?: string }): void;
}

export interface GraphStandIn {
  url: string;
  setWhatsAppNumber(number: { id: string; displayPhoneNumber: string; accessToken: string; appSecret: string; verifyToken?: string; webhookUrl?: string; wabaId?: string }): void;
  setPage(page: { id: string; accessToken: string; appSecret: string; verifyToken?: string; webhookUrl?: string }): void;
  /** A person's WhatsApp or Messenger message, posted to our webhook as Meta would. */
  injectWhatsAppInbound(input: { phoneNumberId: string; from: string; text: string }): Promise<unknown>;
  injectMessengerInbound(input: { pageId: string; psid: string; text: string }): Promise<unknown>;
}

export interface RbmStandIn {
  url: string;
  tokenUrl: string;
  setAgent(agent: { id: string; clientToken: string; webhookUrl?: string; serviceAccount: { clientEmail: string; publicKey: import('node:crypto').KeyObject } }): void;
  /** A person's RCS message to the agent, posted to our webhook as Google would. */
  injectUserMessage(input: { agentId: string; from: string; text: string }): Promise<unknown>;
}
