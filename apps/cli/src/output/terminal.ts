/** A stream the CLI writes to: the process's stdout and stderr, or a test's stand-in. */
export interface Sink {
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): unknown;
  readonly isTTY?: boolean;
}

export interface Paint {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const colours: Paint = {
  red: ansi(31, 39),
  green: ansi(32, 39),
  yellow: ansi(33, 39),
  dim: ansi(2, 22),
  bold: ansi(1, 22),
};
const plain: Paint = { red: String, green: String, yellow: String, dim: String, bold: String };

/**
 * Colours on a terminal only, and never with `NO_COLOR` set (to anything but the empty string, as
 * no-color.org says), with `--no-color`, or on a `TERM=dumb` terminal.
 */
export function colourFor(sink: Sink, env: NodeJS.ProcessEnv, wanted: boolean): Paint {
  const on = wanted && sink.isTTY === true && !env.NO_COLOR && env.TERM !== "dumb";
  return on ? colours : plain;
}

/** The width a terminal shows a text at: colours take none. */
export function visibleLength(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape of an ANSI colour
  return text.replace(/\u001b\[\d+m/g, "").length;
}

/**
 * Where commands write. Results go to stdout (`out`, `json`); notes and progress to stderr, and not
 * with `--quiet`; errors to stderr always. A progress line is redrawn in place on a terminal and
 * not shown at all elsewhere (logs of CI get the notes only).
 */
export class Terminal {
  readonly paint: Paint;
  readonly paintErr: Paint;
  private progressShown = false;

  constructor(
    readonly stdout: Sink,
    readonly stderr: Sink,
    private readonly settings: { quiet: boolean; colour: boolean; env: NodeJS.ProcessEnv },
  ) {
    this.paint = colourFor(stdout, settings.env, settings.colour);
    this.paintErr = colourFor(stderr, settings.env, settings.colour);
  }

  /** A result line (or lines) on stdout. */
  out(text: string): void {
    this.endProgress();
    this.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** A result as JSON on stdout: two-space indented, one document. */
  json(value: unknown): void {
    this.out(JSON.stringify(value, null, 2));
  }

  /** A note on stderr (what is happening), unless `--quiet`. */
  note(text: string): void {
    if (this.settings.quiet) return;
    this.endProgress();
    this.stderr.write(`${text}\n`);
  }

  /** An error on stderr, always. */
  error(text: string): void {
    this.endProgress();
    this.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Whether progress is drawn: stderr is a terminal and `--quiet` is off. */
  get showsProgress(): boolean {
    return !this.settings.quiet && this.stderr.isTTY === true;
  }

  /** Redraws the progress line in place (terminals only). */
  progress(text: string): void {
    if (!this.showsProgress) return;
    this.stderr.write(`\r\u001b[K${text}`);
    this.progressShown = true;
  }

  /** Ends a progress line, leaving it on screen. */
  endProgress(): void {
    if (!this.progressShown) return;
    this.progressShown = false;
    this.stderr.write("\n");
  }
}
