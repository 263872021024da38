export { createOrganisation, createTokenForUser } from "./admin/organisations";
export { seedDemo } from "./demo/seed-demo";
export { app } from "./app";
export { loadConfig, type ServerConfig } from "./config";
export { type Database, openDatabase } from "./db/database";
export { migrate } from "./db/migrate";
export { buildServer, type RunningServer, startServer } from "./server";
