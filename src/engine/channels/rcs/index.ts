export { createRcsAdapter, RBM_BASE_URL, RCS_TEXT_MAX, type RcsAdapter, type RcsAdapterConfig, type RcsCapability } from './adapter.ts';
export { rbmMessageId, uuidV5, isUuid, RBM_MESSAGE_NAMESPACE } from './message-id.ts';
export {
  serviceAccountTokenProvider, signServiceAccountJwt, GOOGLE_TOKEN_URL, RBM_SCOPE, TokenError,
  type AccessTokenProvider, type ServiceAccount,
} from './service-account-token.ts';
