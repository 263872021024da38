import { type Contract, contractPath } from "@varia/contracts";

/**
 * The contract's path with its parameters filled in. A parameter that is missing, null or empty
 * fails as docs/api.md#answers-and-errors says for the single-sign-on provider: "The parameter 'provider'
 * must be defined."
 */
export function fillPath(contract: Contract, params: Record<string, unknown> | undefined): string {
  const values: Record<string, string> = {};
  for (const [, name = ""] of contract.path.matchAll(/\{(\w+)\}/g)) {
    const value = params?.[name];
    if (value === undefined || value === null || value === "") {
      throw new Error(`The parameter '${name}' must be defined.`);
    }
    values[name] = String(value);
  }
  return contractPath(contract, values);
}
