// The secrets a provider webhook is checked with, from the channel's sealed client token: the
// Meta app secret (X-Hub-Signature-256) and the verify token of the GET handshake for WhatsApp
// and Messenger, the RBM client token (X-Goog-Signature) for RCS. A channel of another platform,
// disabled, or without a token answers null (404: nothing is revealed).
import type { ServerDeps } from '../context.ts';
import { openSecret } from '../modules/channels/secret-fields.ts';
import type { ChannelWebhookSecrets, WebhookPlatform } from '../webhooks/index.ts';

export function webhookSecrets(deps: ServerDeps) {
  return async (platform: WebhookPlatform, channelId: number): Promise<ChannelWebhookSecrets | null> => {
    const channel = await deps.db.selectFrom('channels').select(['company_id', 'platform', 'client_token', 'enabled'])
      .where('id', '=', channelId).executeTakeFirst();
    if (!channel || channel.platform !== platform || !channel.client_token) return null;
    const token = openSecret(deps.secrets, channel.client_token, 'client_token', channel.company_id)!;
    return platform === 'rcs' ? { clientToken: token } : { appSecret: token, verifyToken: token };
  };
}
