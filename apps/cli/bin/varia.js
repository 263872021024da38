#!/usr/bin/env node
import { launch } from "../../../tooling/launch-ts.mjs";

await launch(import.meta.url, new URL("../src/bin.ts", import.meta.url));
