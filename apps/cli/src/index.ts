export { buildProgram, runCli } from "./program";
