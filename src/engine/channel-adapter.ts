// The channel adapter contract is a core port (src/core/ports/channel.ts): the server's
// try-channel test and the sandbox reach channels through it too. The engine's files keep
// importing it from here.
export type {
  ChannelAdapter, ChannelPlatform, DeliveryStatus, InboundEvent, OutboundMessage, ReceiptSink, StatusEvent, SubmitOutcome, TemplateRef,
} from '../core/ports/channel.ts';
