export { exitCodes } from "./errors/exit-codes";
export { buildProgram, runCli } from "./program";
