export { createMessengerAdapter, buildMessengerRequest, MESSENGER_TEXT_MAX, type MessengerAdapterConfig, type MessengerRequest, type MessengerMessagingType, type MessengerTag } from './adapter.ts';
export { messengerRefusal, MESSENGER_OUTSIDE_WINDOW } from './errors.ts';
