// The server's public surface for other parts of the repository (benchmark, end-to-end tests).
export { buildServer, type BuildServerOptions } from './app.ts';
export { startServer, type RunningServer, type StartOptions } from './start.ts';
export { createDatabase, databaseFromEnv, type DatabaseOptions } from './db/database.ts';
export { prepareDatabase } from './db/prepare.ts';
export { seedDemo, demoEmail, generateDemoPassword, demoRoleUsers, demoStateUsers } from './db/demo-seed.ts';
