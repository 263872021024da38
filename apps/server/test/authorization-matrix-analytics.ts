import type { ContractName } from "@varia/contracts";
import type { MatrixEntry } from "./authorization-matrix";

/** Matrix entries of the analytics contracts (see authorization-matrix.ts). */
export const analyticsMatrix: Partial<Record<ContractName, MatrixEntry>> = {};
