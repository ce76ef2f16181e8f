// Demo data for channels, the block list and the SMS platform (called by seedDemo, inside its
// transaction): Demo S.A.S. may use every channel type and has one channel of each (plus an MO
// short code), some traffic on its SMS channel, block-list entries in every state, and SMS
// accounts with quotas on its platform clients. Other demo companies get SMS only and one
// account, so company isolation shows. Channel secrets are random per seed (never fixed in the
// code) and sealed with the process's key. The demo is always the sandbox: its WhatsApp,
// Messenger and RCS channels carry a client token (the stand-ins sign their webhooks with it)
// and the RCS channel a real RSA key (2048 bits, made per seed) whose JWT grant the RBM stand-in
// checks against the public half.
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { Transaction } from 'kysely';
import { effectiveAfter } from '../../core/block-list.ts';
import { constants } from '../../generated/constants.gen.ts';
import { channelPlatforms } from '../../generated/enums.gen.ts';
import { sealCredentials } from '../modules/channels/credentials.ts';
import { defaultSecretBox, type SecretBox } from '../security/secrets.ts';
import type { Database } from '../../engine/database.ts';
import { seedDemoFlows } from './demo-seed-flows.ts';
import { seedTemplates } from './demo-seed-templates.ts';

const HOUR = 3_600_000;
export const DEMO_CREDITS = 1_000_000;
const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

async function seedChannels(trx: Transaction<Database>, companyId: number, now: Date, box: SecretBox): Promise<void> {
  const credentials = (secrets: Parameters<typeof sealCredentials>[2], accountSids?: Parameters<typeof sealCredentials>[3]) =>
    JSON.stringify(sealCredentials(box, companyId, secrets, accountSids));
  const base = { company_id: companyId, tags: '[]', keywords: '[]', priority: 5, page_access_token_fp: null, facebook_page_id: null, client_email: null, callback_url: null, sender: null, short_code: null, created_at: now, updated_at: now };
  const pageToken = token('EAAG');
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const channels = await trx
    .insertInto('channels')
    .values([
      { ...base, name: 'SMS Notificaciones', platform: 'sms', type: 'MT', sender: '+573151234567', tags: JSON.stringify(['transaccional']), priority: 8, credentials: credentials({ authorizationToken: token('smsc_') }), enabled: true },
      { ...base, name: 'SMS Respuestas 85432', platform: 'sms', type: 'MO', short_code: '85432', keywords: JSON.stringify(['INFO', 'PROMO']), credentials: credentials({ authorizationToken: token('smsc_') }), callback_url: 'https://demo.colibri.co/webhooks/sms', enabled: true },
      { ...base, name: 'RCS Demo', platform: 'rcs', type: 'MT', sender: 'colibri_demo_agent', client_email: 'rcs-agent@colibri-demo.iam.gserviceaccount.com', credentials: credentials({ privateKey, clientToken: token('') }), enabled: true },
      { ...base, name: 'WhatsApp Atención', platform: 'whatsapp', type: 'MO', sender: '+573209876543', keywords: JSON.stringify(['HOLA']), credentials: credentials({ authorizationToken: token('EAAW'), clientToken: token('') }, [{ sid: 'WABA102030405060', secret: token('') }]), enabled: true },
      { ...base, name: 'Messenger Demo S.A.S.', platform: 'fbMessenger', type: 'MO', facebook_page_id: '104857600123456', credentials: credentials({ pageAccessToken: pageToken, clientToken: token('') }), page_access_token_fp: box.fingerprint(pageToken, 'pageAccessToken'), enabled: true },
    ])
    .returning(['id', 'name', 'short_code'])
    .execute();
  const moShortCode = channels.find((c) => c.short_code)!;
  await trx.insertInto('short_code_leases').values({ short_code: moShortCode.short_code!, company_id: companyId }).execute();
  await trx.insertInto('channel_keywords').values(['INFO', 'PROMO'].map((keyword) => ({ short_code: moShortCode.short_code!, keyword, channel_id: moShortCode.id }))).execute();

  // Some traffic on the SMS channel, so its statistics are not empty.
  const sms = channels[0];
  const statuses = ['DELIVERED', 'DELIVERED', 'DELIVERED', 'READ', 'SENT', 'FAILED'];
  await trx.insertInto('channel_messages').values(statuses.map((status, i) => ({
    company_id: companyId, channel_id: sms.id, to_number: `+57300555${String(1000 + i)}`, body: 'Colibri: tu pedido va en camino.', status,
    provider_message_id: `demo-${i}`, error: status === 'FAILED' ? 'destination unreachable' : null, is_test: false,
    created_at: new Date(now.getTime() - (i + 1) * HOUR), updated_at: new Date(now.getTime() - (i + 1) * HOUR),
  }))).execute();
}

async function seedBlockList(trx: Transaction<Database>, companyId: number, now: Date): Promise<void> {
  const after = (at: Date) => effectiveAfter(at, constants.blockList.applyAfterHours);
  const daysAgo = (d: number) => new Date(now.getTime() - d * 24 * HOUR);
  const entry = (phone: string, createdAt: Date, source = 'manual') => ({ company_id: companyId, phone, source, created_by: null, created_at: createdAt, effective_at: after(createdAt), removal_requested_at: null, removal_effective_at: null });
  await trx.insertInto('block_list').values([
    entry('+573001112233', daysAgo(10)),
    entry('+573104445566', daysAgo(7), 'file'),
    entry('+573207778899', daysAgo(3), 'file'),
    entry('+573015550000', now), // pending addition
    entry('+573126660001', new Date(now.getTime() - 2 * HOUR)), // pending addition
    { ...entry('+573178889900', daysAgo(5)), removal_requested_at: new Date(now.getTime() - HOUR), removal_effective_at: after(new Date(now.getTime() - HOUR)) }, // pending removal
  ]).execute();
}

async function seedSmsAccounts(trx: Transaction<Database>, companyId: number, now: Date, demo: boolean): Promise<void> {
  const clients = await trx.selectFrom('platform_clients').select('id').where('company_id', '=', companyId).orderBy('id').execute();
  const responsibles = await trx.selectFrom('platform_responsibles').select(['id', 'platform_client_id']).where('company_id', '=', companyId).orderBy('id').execute();
  if (!clients.length) return;
  const responsibleOf = (clientId: number, n = 0) => responsibles.filter((r) => r.platform_client_id === clientId)[n]?.id ?? null;
  const account = (clientId: number, responsibleId: number | null, name: string, quota: number, used: number, state = 'active') =>
    ({ company_id: companyId, platform_client_id: clientId, platform_responsible_id: responsibleId, name, state, quota, used, created_at: now, updated_at: now });
  const rows = demo
    ? [
        account(clients[0].id, responsibleOf(clients[0].id), 'Cuenta Principal', 100000, 35210),
        account(clients[0].id, responsibleOf(clients[0].id, 1), 'Cuenta OTP', 50000, 49990),
        ...(clients[1] ? [account(clients[1].id, responsibleOf(clients[1].id), 'Retail Promociones', 20000, 0, 'inactive')] : []),
      ]
    : [account(clients[0].id, responsibleOf(clients[0].id), 'Cuenta Logística', 10000, 1200)];
  const accounts = await trx.insertInto('sms_accounts').values(rows).returning(['id', 'name']).execute();
  await trx.insertInto('sms_campaigns').values(accounts.flatMap((a, i) => [
    { company_id: companyId, account_id: a.id, name: `${a.name}: bienvenida`, created_at: new Date(now.getTime() - (i + 2) * 24 * HOUR) },
    { company_id: companyId, account_id: a.id, name: `${a.name}: recordatorio`, created_at: new Date(now.getTime() - (i + 1) * 24 * HOUR) },
  ])).execute();
}

export async function seedMessagingDemo(
  trx: Transaction<Database>,
  companies: { demoCompanyId: number; otherCompanyIds: number[] },
  now: Date,
  box: SecretBox = defaultSecretBox(),
): Promise<void> {
  const { demoCompanyId, otherCompanyIds } = companies;
  await trx.insertInto('company_channel_types').values(channelPlatforms.map((platform) => ({ company_id: demoCompanyId, platform }))).execute();
  await seedChannels(trx, demoCompanyId, now, box);
  await seedBlockList(trx, demoCompanyId, now);
  await seedSmsAccounts(trx, demoCompanyId, now, true);
  // The demo company starts with 1,000,000 credits (1 credit = 1 COP), granted through the ledger.
  await trx.insertInto('company_credits').values({ company_id: demoCompanyId, balance: DEMO_CREDITS, reserved: 0, updated_at: now }).execute();
  await trx.insertInto('credit_ledger').values({ company_id: demoCompanyId, kind: 'grant', amount: DEMO_CREDITS, balance_after: DEMO_CREDITS, reserved_after: 0, reference: 'demo', created_at: now }).execute();
  for (const companyId of otherCompanyIds) {
    await trx.insertInto('company_channel_types').values({ company_id: companyId, platform: 'sms' }).execute();
    await seedSmsAccounts(trx, companyId, now, false);
  }
  await seedTemplates(trx, companies, now);
  await seedDemoFlows(trx, demoCompanyId, now);
}
