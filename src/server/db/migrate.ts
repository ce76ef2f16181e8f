// Migrations live in code (not scanned from disk) so they ship inside any bundle and run the
// same on PGlite and PostgreSQL. Append new ones; never edit one that has shipped.
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as initial from './migrations/0001-initial.ts';
import * as geography from './migrations/0002-geography.ts';
import * as companyAdministration from './migrations/0100_company-administration.ts';
import * as channels from './migrations/0200_channels.ts';
import * as apiCredentials from './migrations/0201_api-credentials.ts';
import * as blockList from './migrations/0202_block-list.ts';
import * as smsPlatform from './migrations/0203_sms-platform.ts';
import * as teamSearch from './migrations/0204_team-search.ts';
import * as messaging from './migrations/0300_messaging.ts';
import * as awaitingReceipt from './migrations/0301_messages-awaiting-receipt.ts';
import * as shortener from './migrations/0310_shortener.ts';
import * as shortenerClicks from './migrations/0311_shortener-clicks.ts';
import * as templates from './migrations/0320_templates.ts';
import * as events from './migrations/0330_events.ts';
import * as history from './migrations/0340_history.ts';
import * as messageParts from './migrations/0350_message-parts.ts';
import * as outboxCompany from './migrations/0360_outbox-company.ts';
import * as campaignTests from './migrations/0370_campaign-tests.ts';
import * as campaignTemplate from './migrations/0380_campaign-template.ts';
import * as signinAttempts from './migrations/0395_signin-attempts.ts';
import * as signinLocks from './migrations/0396_signin-locks.ts';
import * as serviceUsers from './migrations/0398_service-users.ts';
import * as throttleCounters from './migrations/0399_throttle-counters.ts';
import * as launchJobs from './migrations/0400_launch-jobs.ts';
import * as receiptProgress from './migrations/0401_receipt-progress.ts';
import * as messageRollups from './migrations/0410_message-rollups.ts';
import * as rollupOperators from './migrations/0420_rollup-operators.ts';
import * as rollupAreas from './migrations/0430_rollup-areas.ts';
import * as reportFiles from './migrations/0440_report-files.ts';
import * as certificates from './migrations/0450_certificates.ts';
import * as reportSchedules from './migrations/0460_report-schedules.ts';
import * as rollupDays from './migrations/0470_rollup-days.ts';
import * as conversations from './migrations/0480_conversations.ts';
import * as payments from './migrations/0490_payments.ts';
import * as promotionalCredits from './migrations/0491_promotional-credits.ts';
import * as messagesInOrder from './migrations/0492_messages-in-order.ts';
import * as campaignFlows from './migrations/0493_campaign-flows.ts';
import * as flowStepCountShards from './migrations/0494_flow-step-count-shards.ts';
import * as flowTraining from './migrations/0495_flow-training.ts';
import * as messagesPaidAtClaim from './migrations/0496_messages-paid-at-claim.ts';
import * as reportFileLanguage from './migrations/0497_report-file-language.ts';
import * as ftpImports from './migrations/0498_ftp-imports.ts';
import * as paymentsOneTransaction from './migrations/0499_payments-one-transaction.ts';
import * as channelCredentials from './migrations/0500_channel-credentials.ts';
import * as recipientEntered from './migrations/0501_recipient-entered.ts';
import * as certificatePdf from './migrations/0502_certificate-pdf.ts';
import * as flowNotes from './migrations/0503_flow-notes.ts';
import * as screenSchedules from './migrations/0504_screen-schedules.ts';
import * as platformFiles from './migrations/0505_platform-files.ts';
import * as deploymentResend from './migrations/0506_deployment-resend.ts';
import * as numberLists from './migrations/0507_number-lists.ts';
import * as messagesOverflow from './migrations/0508_messages-overflow.ts';
import * as helpRequests from './migrations/0509_help-requests.ts';
import * as fraudCheck from './migrations/0510_fraud-check.ts';
import * as apiKeyForeignOrigin from './migrations/0511_api-key-foreign-origin.ts';
import type { Database } from '../../engine/database.ts';

const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-geography': geography,
  '0100_company-administration': companyAdministration,
  '0200_channels': channels,
  '0201_api-credentials': apiCredentials,
  '0202_block-list': blockList,
  '0203_sms-platform': smsPlatform,
  '0204_team-search': teamSearch,
  '0300_messaging': messaging,
  '0301_messages-awaiting-receipt': awaitingReceipt,
  '0310_shortener': shortener,
  '0311_shortener-clicks': shortenerClicks,
  '0320_templates': templates,
  '0330_events': events,
  '0340_history': history,
  '0350_message-parts': messageParts,
  '0360_outbox-company': outboxCompany,
  '0370_campaign-tests': campaignTests,
  '0380_campaign-template': campaignTemplate,
  '0395_signin-attempts': signinAttempts,
  '0396_signin-locks': signinLocks,
  '0398_service-users': serviceUsers,
  '0399_throttle-counters': throttleCounters,
  '0400_launch-jobs': launchJobs,
  '0401_receipt-progress': receiptProgress,
  '0410_message-rollups': messageRollups,
  '0420_rollup-operators': rollupOperators,
  '0430_rollup-areas': rollupAreas,
  '0440_report-files': reportFiles,
  '0450_certificates': certificates,
  '0460_report-schedules': reportSchedules,
  '0470_rollup-days': rollupDays,
  '0480_conversations': conversations,
  '0490_payments': payments,
  '0491_promotional-credits': promotionalCredits,
  '0492_messages-in-order': messagesInOrder,
  '0493_campaign-flows': campaignFlows,
  '0494_flow-step-count-shards': flowStepCountShards,
  '0495_flow-training': flowTraining,
  '0496_messages-paid-at-claim': messagesPaidAtClaim,
  '0497_report-file-language': reportFileLanguage,
  '0498_ftp-imports': ftpImports,
  '0499_payments-one-transaction': paymentsOneTransaction,
  '0500_channel-credentials': channelCredentials,
  '0501_recipient-entered': recipientEntered,
  '0502_certificate-pdf': certificatePdf,
  '0503_flow-notes': flowNotes,
  '0504_screen-schedules': screenSchedules,
  '0505_platform-files': platformFiles,
  '0506_deployment-resend': deploymentResend,
  '0507_number-lists': numberLists,
  '0508_messages-overflow': messagesOverflow,
  '0509_help-requests': helpRequests,
  '0510_fraud-check': fraudCheck,
  '0511_api-key-foreign-origin': apiKeyForeignOrigin,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  // Unordered: a migration numbered into an earlier block (0204 after 0300 ran) still runs on a
  // database that has the later ones; pending migrations run in name order.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
