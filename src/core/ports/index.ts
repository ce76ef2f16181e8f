// The interfaces to the outside world (ARCHITECTURE 2): the sandbox implements them, real
// providers implement the same shapes, and the server's composition root wires one or the other.
export type * from './captcha.ts';
export type * from './channel.ts';
export type * from './message.ts';
export type * from './payment.ts';
export type * from './screen-runner.ts';
