import type { ExitCode } from "./errors/exit-codes";
import type { Terminal } from "./output/terminal";

/** The options every command takes (`varia --help` lists them). */
export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  quiet?: boolean;
  /** A call's time limit in ms (`--timeout` is in seconds). */
  timeout: number;
  color: boolean;
  debug?: boolean;
}

/** The default of `--timeout`: 30 s a call. */
export const defaultTimeoutMs = 30_000;

/** What a command runs with: its options, where it writes, the environment, and what to close. */
export interface CommandContext {
  readonly options: GlobalOptions;
  readonly terminal: Terminal;
  readonly env: NodeJS.ProcessEnv;
  /** Registers something to close when the command ends (a connection pool). */
  onClose(close: () => Promise<void> | void): void;
  /** Ends the command with this exit code once it returns, having said why itself (the highest wins). */
  exitWith(code: ExitCode): void;
}
