export { createOrganisation, createTokenForUser } from "./admin/organisations";
export { app } from "./app";
export { loadConfig, type ServerConfig } from "./config";
export { type Database, openDatabase } from "./db/database";
export { migrate } from "./db/migrate";
export { seedDemo } from "./demo/seed-demo";
export { buildServer, type RunningServer, startServer } from "./server";
