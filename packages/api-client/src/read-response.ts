import type { Contract } from "@varia/contracts";
import { ApiError, errorForStatus } from "./api-error";

/**
 * A downloaded file (responseKind `file`). The body is read whole into memory: simple for both the
 * browser (a Blob for a download link) and Node (one `writeFile`), and our exports are at most tens of
 * megabytes.
 */
export interface FileResponse {
  /** From Content-Disposition (`filename*=UTF-8''...` preferred over `filename=`). */
  fileName: string | undefined;
  contentType: string;
  body: Uint8Array;
  /** @deprecated The same bytes as `body`; kept for callers written before `body`. */
  data: Uint8Array;
}

/** Told the bytes moved so far, and the whole size when it is known. */
export type ProgressListener = (bytes: number, total: number | undefined) => void;

/** Reads a body chunk by chunk, telling `onProgress` how much has arrived. */
async function readCounting(response: Response, onProgress: ProgressListener): Promise<Uint8Array> {
  const length = Number(response.headers.get("content-length"));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress(0, total);
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(chunk);
      received += chunk.byteLength;
      onProgress(received, total);
    }
  }
  const body = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

export function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A malformed encoded name: fall back to the plain one.
    }
  }
  return /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i
    .exec(disposition)
    ?.slice(1)
    .find((name) => name);
}

/**
 * Reads an answer as its contract says: 2xx succeed (200 to 299, docs/api.md#answers-and-errors), anything
 * else becomes an ApiError (docs/api.md#answers-and-errors); JSON is parsed and checked against the
 * contract's response schema, text is returned raw, files with their names, and empty answers as undefined.
 */
export async function readResponse(
  contract: Contract,
  response: Response,
  url: string,
  onProgress?: ProgressListener,
): Promise<unknown> {
  if (response.status < 200 || response.status > 299) {
    throw errorForStatus(response.status, await response.text(), headersOf(response), url);
  }
  switch (contract.responseKind) {
    case "empty":
      await response.arrayBuffer();
      return undefined;
    case "text":
      return response.text();
    case "file": {
      const body = onProgress
        ? await readCounting(response, onProgress)
        : new Uint8Array(await response.arrayBuffer());
      return {
        fileName: fileNameOf(response.headers.get("content-disposition")),
        contentType: response.headers.get("content-type") ?? "application/octet-stream",
        body,
        data: body,
      } satisfies FileResponse;
    }
    case "json": {
      const text = await response.text();
      const mismatch = (reason: string) =>
        new ApiError(
          `The answer of ${contract.name} does not match its contract: ${reason}`,
          response.status,
          text,
          headersOf(response),
          undefined,
          url,
        );
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        throw mismatch(`it is not JSON (${response.headers.get("content-type") ?? "no content type"})`);
      }
      const parsed = contract.response.safeParse(json);
      if (!parsed.success) {
        throw mismatch(
          parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; "),
        );
      }
      return parsed.data;
    }
  }
}
