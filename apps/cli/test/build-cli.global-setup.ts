/** Builds apps/cli/dist before any test runs, so the tests run the CLI of the sources at hand. */
export default async function setup() {
  await import("../build.mjs");
}
