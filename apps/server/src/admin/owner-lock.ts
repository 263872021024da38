import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite has one owner at a time. The owner writes its pid to `owner.lock` in the data folder;
 * another process finding a live owner must go through it (the admin socket) or stop.
 */
export type OwnerLock = { acquired: true; release(): void } | { acquired: false; pid: number };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function ownerLockPath(dataDir: string) {
  return join(dataDir, "owner.lock");
}

export function acquireOwnerLock(dataDir: string): OwnerLock {
  mkdirSync(dataDir, { recursive: true });
  const path = ownerLockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        acquired: true,
        release: () => {
          try {
            if (readFileSync(path, "utf8") === String(process.pid)) rmSync(path);
          } catch {}
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(path, "utf8"));
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) return { acquired: false, pid };
      rmSync(path, { force: true }); // a stale lock from a process that died
    }
  }
  throw new Error(`Could not take the lock ${path}`);
}
