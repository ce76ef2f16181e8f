// The move of a channel's secrets from one column per platform's secret into one credentials
// document (migration 0500): values sealed in the columns open from the document afterwards,
// through the API's own readers, with nothing resealed; and the way back restores the columns.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { down, up } from '../../src/server/db/migrations/0500_channel-credentials.ts';
import { openAccountSids, openSecrets } from '../../src/server/modules/channels/credentials.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');

describe('channel credentials in one document', () => {
  it('carries secrets sealed in the old columns into the document, where the API opens them, and back', async () => {
    const box = defaultSecretBox();
    const companyId = await demoCompanyId(h);
    await down(h.db as never);
    // A WhatsApp channel as the columns held it: each secret bound to its column and company.
    const seal = (column: string, value: string) => box.seal(value, `channels.${column}:${companyId}`);
    const inserted = await sql<{ id: number }>`insert into channels (company_id, name, platform, type, sender, tags, keywords, priority, authorization_token, client_token,
        account_sids, enabled, created_at, updated_at)
      values (${companyId}, 'WhatsApp de antes', 'whatsapp', 'MT', '+573209990001', '[]', '[]', 5, ${seal('authorization_token', 'EAAW-before-4321')},
        ${seal('client_token', 'app-secret-before')}, ${JSON.stringify([{ sid: 'WABA555', secret: seal('account_sids', 'sid-secret-before') }])}, false, now(), now())
      returning id`.execute(h.db);
    const id = inserted.rows[0].id;

    await up(h.db as never);
    const row = await h.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(Object.keys(row.credentials.secrets).sort()).toEqual(['authorizationToken', 'clientToken']);
    expect(openSecrets(box, row.credentials, companyId)).toEqual({ authorizationToken: 'EAAW-before-4321', clientToken: 'app-secret-before', pageAccessToken: null, privateKey: null });
    expect(openAccountSids(box, row.credentials, companyId)).toEqual([{ sid: 'WABA555', secret: 'sid-secret-before' }]);
    // The API answers it masked, as any channel.
    const answer = (await h.op('channels.get', { token: tokens.manager, params: { id } })).json();
    expect(answer).toMatchObject({ authorizationToken: '••••4321', accountSids: [{ sid: 'WABA555', secret: '••••fore' }], missing: [] });

    // Every demo channel kept its secrets too (the seed wrote them in the document; down and up keep them).
    await down(h.db as never);
    const columns = await sql<{ authorization_token: string | null; account_sids: unknown[] }>`select authorization_token, account_sids from channels where id = ${id}`.execute(h.db);
    expect(box.open(columns.rows[0].authorization_token!, `channels.authorization_token:${companyId}`)).toBe('EAAW-before-4321');
    expect(columns.rows[0].account_sids).toHaveLength(1);
    await up(h.db as never);
    const again = await h.db.selectFrom('channels').select('credentials').where('id', '=', id).executeTakeFirstOrThrow();
    expect(openSecrets(box, again.credentials, companyId).authorizationToken).toBe('EAAW-before-4321');
  });
});
