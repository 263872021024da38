import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOrganisation, loadConfig, type RunningServer, startServer } from "@varia/server";
import { type Browser, chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const webDist = join(import.meta.dirname, "..", "apps", "web", "dist");

/** Debian's Chromium, headless, with the flags this machine needs (no downloads, no sandbox as root). */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath))
    throw new Error(`Chromium is not installed at ${chromiumPath} (apt-get install chromium)`);
  if (!existsSync(join(webDist, "index.html")))
    throw new Error("The web app is not built: npm run build -w @varia/web");
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * The real server on a free port with a fresh embedded database and the built web app; with a
 * `logStream`, its JSON log lines (level info) go there.
 */
export async function startE2eServer(
  env: Record<string, string> = {},
  options: { logStream?: { write(line: string): void } } = {},
): Promise<{
  server: RunningServer;
  port: string;
  dataDir: string;
  stop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-e2e-"));
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    VARIA_DATA_DIR: dataDir,
    VARIA_WEB_DIST: webDist,
    LOG_LEVEL: options.logStream ? "info" : "silent",
    ...env,
  });
  const server = await startServer(
    config,
    options.logStream ? { logStream: options.logStream } : { logger: false },
  );
  return {
    server,
    port: new URL(server.url).port,
    dataDir,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createTenant(server: RunningServer, tenant: string, password: string) {
  const email = `admin@${tenant}.example.com`;
  await createOrganisation(server.database.db, {
    tenant,
    name: `${tenant} Ltd`,
    adminEmail: email,
    adminPassword: password,
  });
  return { email, password };
}
