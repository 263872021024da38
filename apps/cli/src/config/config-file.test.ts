import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configPath, readConfigFile, writeConfigFile } from "./config-file";
import { normaliseHost, resolveTarget } from "./resolve-target";

const dir = () => mkdtempSync(join(tmpdir(), "varia-config-"));

describe("the profiles file", () => {
  it("lives in $VARIA_CONFIG_DIR, else an absolute $XDG_CONFIG_HOME/varia, else ~/.config/varia", () => {
    expect(configPath({ VARIA_CONFIG_DIR: "/a", XDG_CONFIG_HOME: "/x" })).toBe("/a/config.json");
    expect(configPath({ XDG_CONFIG_HOME: "/x" })).toBe("/x/varia/config.json");
    expect(configPath({ XDG_CONFIG_HOME: "relative" })).toMatch(/\/\.config\/varia\/config\.json$/);
  });

  it("is written 0600 in a 0700 folder, also over a file that was readable by others", () => {
    const path = join(dir(), "nested", "config.json");
    writeConfigFile(path, { profiles: { a: { host: "http://a", token: "varia_a" } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    writeFileSync(path, "{}", { mode: 0o644 });
    writeConfigFile(path, { profiles: {} });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("reads the one host and token of earlier versions as the profile default, and names a broken file", () => {
    const path = join(dir(), "config.json");
    writeFileSync(path, JSON.stringify({ host: "http://old", token: "varia_old" }));
    expect(readConfigFile(path)).toEqual({
      profiles: { default: { host: "http://old", token: "varia_old" } },
    });
    writeFileSync(path, "{ not json");
    expect(() => readConfigFile(path)).toThrow(`${path} is not valid JSON`);
    expect(readConfigFile(join(dir(), "missing.json"))).toEqual({ profiles: {} });
  });
});

describe("choosing the host and token", () => {
  const config = {
    profiles: {
      default: { host: "http://default", token: "varia_default" },
      acme: { host: "http://acme", token: "varia_acme" },
      beta: { host: "http://beta", token: "varia_beta" },
    },
  };
  const env = { VARIA_PROFILE: "beta", VARIA_HOST: "http://env", VARIA_TOKEN: "varia_env" };

  it("takes --profile, then VARIA_PROFILE, then VARIA_HOST/VARIA_TOKEN, then the default profile", () => {
    expect(resolveTarget({ profile: "acme" }, env, config)).toEqual({
      ...config.profiles.acme,
      profile: "acme",
    });
    expect(resolveTarget({}, env, config)).toEqual({ ...config.profiles.beta, profile: "beta" });
    expect(resolveTarget({}, { ...env, VARIA_PROFILE: "" }, config)).toEqual({
      host: "http://env",
      token: "varia_env",
      profile: null,
    });
    expect(resolveTarget({}, { VARIA_TOKEN: "varia_env" }, config)).toEqual({
      host: "http://default",
      token: "varia_env",
      profile: "default",
    });
    expect(resolveTarget({}, {}, config)).toEqual({ ...config.profiles.default, profile: "default" });
  });

  it("refuses a profile that is not stored, listing those that are, and says how to log in", () => {
    expect(() => resolveTarget({ profile: "gamma" }, { VARIA_CONFIG_DIR: "/c" }, config)).toThrow(
      "No profile 'gamma' in /c/config.json: run `varia login --profile gamma` (stored: default, acme, beta)",
    );
    expect(() => resolveTarget({}, {}, { profiles: {} })).toThrow(
      /^Not logged in: run `varia login`.*VARIA_TOKEN$/,
    );
    const { acme } = config.profiles;
    expect(() => resolveTarget({}, {}, { profiles: { acme: acme! } })).toThrow(
      "(stored profiles: acme; `varia login` without --profile stores 'default')",
    );
  });
});

describe("a host's address", () => {
  it("keeps its origin and path, without a trailing slash or /api, whichever way it came", () => {
    expect(normaliseHost(" https://Acme.Example.com:443/varia/ ", "--host")).toBe(
      "https://acme.example.com/varia",
    );
    expect(normaliseHost("https://acme.example.com/api/", "--host")).toBe("https://acme.example.com");
    expect(normaliseHost("https://acme.example.com/varia//api", "--host")).toBe(
      "https://acme.example.com/varia",
    );
    expect(normaliseHost("http://acme.localhost:8080", "--host")).toBe("http://acme.localhost:8080");
    // A profile stored before, with the API's /api, is called without it.
    const stored = { profiles: { old: { host: "https://acme.example.com/api", token: "varia_old" } } };
    expect(resolveTarget({ profile: "old" }, {}, stored).host).toBe("https://acme.example.com");
    expect(() => normaliseHost("https://acme.example.com/?a=1", "VARIA_HOST")).toThrow(
      "Invalid VARIA_HOST 'https://acme.example.com/?a=1': no query (?) or fragment (#)",
    );
  });
});
