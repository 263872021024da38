import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "{packages,apps}/*/{src,test,e2e}/**/*.test.{ts,tsx}",
      "tooling/**/*.test.ts",
      "e2e/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    pool: "forks",
    reporters: ["default", "./tooling/summary-reporter.ts"],
    // The CLI's tests run the built `varia`, as a user does: built from the sources being tested.
    globalSetup: ["./apps/cli/test/build-cli.global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
