/**
 * The parts of undici the CLI uses, taken from undici's own modules rather than its index, which
 * also loads its mocks, proxies, caches and WebSocket: a third less code to read at every start.
 * The types are undici's own.
 */
import type * as undici from "undici";
// @ts-expect-error undici ships no types for its modules, only for its index
import AgentModule from "undici/lib/dispatcher/agent.js";
// @ts-expect-error as above
import { FormData as FormDataModule } from "undici/lib/web/fetch/formdata.js";
// @ts-expect-error as above
import { fetch as fetchModule } from "undici/lib/web/fetch/index.js";

export const Agent = AgentModule as typeof undici.Agent;
export type Agent = undici.Agent;
export const fetch = fetchModule as typeof undici.fetch;
export const FormData = FormDataModule as typeof undici.FormData;
