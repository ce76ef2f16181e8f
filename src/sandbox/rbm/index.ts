// Stand-in for Google RCS Business Messaging (token endpoint, capabilities, agentMessages,
// webhook setup and signed user events): see server.ts.
export { startRbmSandbox, type RbmSandbox, type RbmSandboxOptions, type SandboxRbmAgent, type RbmSentMessage, type RbmRequestRecord } from './server.ts';
