/** Where commands write: stdout for results, stderr for errors; injectable for tests. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
};

export function printJson(output: Output, value: unknown) {
  output.out(JSON.stringify(value, null, 2));
}
