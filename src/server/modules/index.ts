// Every declared operation's handler, in one typed map: a missing entry fails the type check,
// and buildServer refuses to start if the map and the declarations ever disagree.
import type { HandlerMap } from '../http/handler.ts';
import { accountHandlers } from './account/index.ts';
import { agentsHandlers } from './agents/index.ts';
import { paymentsHandlers } from './payments/index.ts';
import { associationsHandlers } from './associations/index.ts';
import { auditHandlers } from './audit/index.ts';
import { blockListHandlers } from './blockList/index.ts';
import { certificatesHandlers } from './certificates/index.ts';
import { campaignsHandlers } from './campaigns/index.ts';
import { channelsHandlers } from './channels/index.ts';
import { clientAuthHandlers } from './clientAuth/index.ts';
import { clientsHandlers } from './clients/index.ts';
import { companyHandlers } from './company/index.ts';
import { costCentersHandlers } from './costCenters/index.ts';
import { credentialsHandlers } from './credentials/index.ts';
import { creditsHandlers } from './credits/index.ts';
import { deploymentsHandlers } from './deployments/index.ts';
import { eventsHandlers } from './events/index.ts';
import { flowsHandlers } from './flows/index.ts';
import { geographyHandlers } from './geography/index.ts';
import { messagesHandlers } from './messages/index.ts';
import { messagingSettingsHandlers } from './messagingSettings/index.ts';
import { numberListsHandlers } from './numberLists/index.ts';
import { helpHandlers } from './help/index.ts';
import { notificationsHandlers } from './notifications/index.ts';
import { mtReportsHandlers } from './mtReports/index.ts';
import { otpReportsHandlers } from './otpReports/index.ts';
import { platformReportsHandlers } from './platformReports/index.ts';
import { platformFilesHandlers } from './platformFiles/index.ts';
import { platformFtpHandlers } from './platformFtp/index.ts';
import { platformSmsHandlers } from './platformSms/index.ts';
import { reportCenterHandlers } from './reportCenter/index.ts';
import { rolesHandlers } from './roles/index.ts';
import { rolesV3Handlers } from './rolesV3/index.ts';
import { shortenerHandlers } from './shortener/index.ts';
import { systemHandlers } from './system/index.ts';
import { teamHandlers } from './team/index.ts';
import { templatesHandlers } from './templates/index.ts';

export const handlers: HandlerMap = {
  ...accountHandlers,
  ...agentsHandlers,
  ...paymentsHandlers,
  ...associationsHandlers,
  ...auditHandlers,
  ...blockListHandlers,
  ...certificatesHandlers,
  ...campaignsHandlers,
  ...channelsHandlers,
  ...clientAuthHandlers,
  ...clientsHandlers,
  ...companyHandlers,
  ...costCentersHandlers,
  ...credentialsHandlers,
  ...creditsHandlers,
  ...deploymentsHandlers,
  ...eventsHandlers,
  ...flowsHandlers,
  ...geographyHandlers,
  ...messagesHandlers,
  ...messagingSettingsHandlers,
  ...notificationsHandlers,
  ...numberListsHandlers,
  ...helpHandlers,
  ...mtReportsHandlers,
  ...otpReportsHandlers,
  ...platformReportsHandlers,
  ...platformFilesHandlers,
  ...platformFtpHandlers,
  ...platformSmsHandlers,
  ...reportCenterHandlers,
  ...rolesHandlers,
  ...rolesV3Handlers,
  ...shortenerHandlers,
  ...systemHandlers,
  ...teamHandlers,
  ...templatesHandlers,
};
