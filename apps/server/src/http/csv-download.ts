import { Readable } from "node:stream";
import { csvByteOrderMark } from "@varia/contracts";
import type { FastifyReply } from "fastify";

/**
 * Answers a CSV download, the one way every CSV route answers: text/csv in UTF-8, named `fileName`
 * when given, its text after the byte order mark (`csvByteOrderMark`; docs/import.md, "Exports").
 */
export function csvDownload(
  reply: FastifyReply,
  text: string | Iterable<string> | AsyncIterable<string>,
  fileName?: string,
): string {
  reply.type("text/csv; charset=utf-8");
  if (fileName) reply.header("content-disposition", `attachment; filename="${fileName}"`);
  async function* withMark() {
    yield csvByteOrderMark;
    if (typeof text === "string") yield text;
    else yield* text;
  }
  return Readable.from(withMark()) as unknown as string;
}
