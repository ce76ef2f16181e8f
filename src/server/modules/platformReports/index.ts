// The provider's reports over its client companies (schemas/api/platform-reports.yaml).
import type { DomainHandlers } from '../../http/handler.ts';
import { smsTraffic } from './sms-traffic.ts';

export const platformReportsHandlers: DomainHandlers<'platformReports'> = {
  'platformReports.reportsSms': smsTraffic,
};
