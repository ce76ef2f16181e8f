// The secrets a provider webhook is checked with, from the channel's sealed client token, as its
// channel type's webhook names them (src/engine/channels: the Meta app secret and verify token for
// WhatsApp and Messenger, the RBM client token for RCS). A channel of another platform, disabled,
// or without a token answers null (404: nothing is revealed).
import { channelDefinition } from '../../engine/channels/index.ts';
import type { ServerDeps } from '../context.ts';
import { openSecret } from '../modules/channels/credentials.ts';
import type { ChannelWebhookSecrets, WebhookPlatform } from '../webhooks/index.ts';

export function webhookSecrets(deps: ServerDeps) {
  return async (platform: WebhookPlatform, channelId: number): Promise<ChannelWebhookSecrets | null> => {
    const channel = await deps.db.selectFrom('channels').select(['company_id', 'platform', 'credentials', 'enabled'])
      .where('id', '=', channelId).executeTakeFirst();
    if (!channel || channel.platform !== platform) return null;
    const clientToken = openSecret(deps.secrets, channel.credentials, 'clientToken', channel.company_id);
    const webhook = channelDefinition(platform)?.webhook;
    if (!clientToken || !webhook) return null;
    return webhook.secretsOf(clientToken);
  };
}
