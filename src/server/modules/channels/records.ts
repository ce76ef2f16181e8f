// Channel rows as the API shows them (secrets masked) and as providers need them (secrets open).
import type { Selectable } from 'kysely';
import type { ChannelPlatform } from '../../../generated/enums.gen.ts';
import type { Channel } from '../../../generated/types.gen.ts';
import type { ChannelEndpoint } from '../../../core/ports/channel.ts';
import type { ChannelsTable } from '../../../engine/database.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { channelDefinition } from '../../../engine/channels/index.ts';
import { maskOrNull, openAccountSids, openSecrets } from './credentials.ts';
import { missingFor, type PlainValues } from './values.ts';

export type ChannelRow = Selectable<ChannelsTable>;

export const plainOf = (row: ChannelRow): PlainValues => ({
  name: row.name,
  type: row.type as PlainValues['type'],
  sender: row.sender,
  shortCode: row.short_code,
  tags: row.tags,
  keywords: row.keywords,
  priority: row.priority,
  facebookPageId: row.facebook_page_id,
  clientEmail: row.client_email,
  callbackUrl: row.callback_url,
});

export function toChannel(box: SecretBox, row: ChannelRow): Channel {
  const secrets = openSecrets(box, row.credentials, row.company_id);
  const plain = plainOf(row);
  const accountSids = openAccountSids(box, row.credentials, row.company_id);
  return {
    id: row.id,
    ...plain,
    platform: row.platform as ChannelPlatform,
    authorizationToken: maskOrNull(secrets.authorizationToken),
    pageAccessToken: maskOrNull(secrets.pageAccessToken),
    clientToken: maskOrNull(secrets.clientToken),
    privateKey: maskOrNull(secrets.privateKey),
    accountSids: accountSids.map((s) => ({ sid: s.sid, secret: maskOrNull(s.secret)! })),
    enabled: row.enabled,
    missing: missingFor(row.platform, { ...plain, ...secrets, accountSids }),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The opened secrets that have a value (what a ChannelEndpoint carries). */
export function presentSecrets(secrets: Partial<Record<string, string | null>>): Partial<Record<string, string>> {
  const open: Partial<Record<string, string>> = {};
  for (const [k, v] of Object.entries(secrets)) if (v) open[k] = v;
  return open;
}

/** What a channel connector needs to reach this channel (core/ports/channel.ts), secrets opened. */
export function endpointOf(box: SecretBox, row: ChannelRow): ChannelEndpoint {
  return {
    id: row.id,
    companyId: row.company_id,
    platform: row.platform as ChannelPlatform,
    sender: row.sender,
    shortCode: row.short_code,
    facebookPageId: row.facebook_page_id,
    clientEmail: row.client_email,
    secrets: presentSecrets(openSecrets(box, row.credentials, row.company_id)),
    accountSids: openAccountSids(box, row.credentials, row.company_id),
    connection: row.connection ?? {},
  };
}

/** Spec 3's statistics colour of a channel's type (its definition's), grey for a type no definition claims. */
export const platformColor = (platform: string): string => channelDefinition(platform)?.color ?? '#757575';
