import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configPath, readConfigFile, resolveConfig, writeConfigFile } from "./config-file";

describe("the CLI config file", () => {
  it("is written readable by its owner only", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "varia-cli-")), "nested");
    const path = configPath({ VARIA_CONFIG_DIR: dir });
    writeConfigFile(path, { host: "http://localhost:8080", token: "varia_x" });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readConfigFile(path)).toEqual({ host: "http://localhost:8080", token: "varia_x" });
  });

  it("lets VARIA_HOST and VARIA_TOKEN override the stored values", () => {
    const dir = mkdtempSync(join(tmpdir(), "varia-cli-"));
    writeConfigFile(configPath({ VARIA_CONFIG_DIR: dir }), { host: "http://stored", token: "varia_stored" });
    expect(resolveConfig({ VARIA_CONFIG_DIR: dir })).toEqual({
      host: "http://stored",
      token: "varia_stored",
    });
    expect(
      resolveConfig({ VARIA_CONFIG_DIR: dir, VARIA_HOST: "http://env", VARIA_TOKEN: "varia_env" }),
    ).toEqual({
      host: "http://env",
      token: "varia_env",
    });
  });
});
