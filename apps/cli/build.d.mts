// build.mjs runs the build when imported; it exports nothing.
export {};
