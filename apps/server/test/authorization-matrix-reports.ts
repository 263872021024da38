import type { ContractName } from "@varia/contracts";
import type { MatrixEntry } from "./authorization-matrix";

/** Matrix entries of the reports contracts (see authorization-matrix.ts). */
export const reportMatrix: Partial<Record<ContractName, MatrixEntry>> = {};
