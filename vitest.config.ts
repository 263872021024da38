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
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
