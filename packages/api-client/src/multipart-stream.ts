import type { ProgressListener } from "./read-response";

/**
 * A `multipart/form-data` body of one file part, as a stream of known length: the bytes are read
 * from the file as they are sent, and `onProgress` hears how many of the file's bytes have gone. The
 * encoding is the one FormData produces (a name's `"`, CR and LF percent-encoded). Streaming a
 * request body needs `duplex: "half"`, which Node's fetch (undici) has; browsers send FormData.
 */
export function multipartFileBody(
  field: string,
  file: Blob,
  fileName: string,
  onProgress: ProgressListener,
): { body: ReadableStream<Uint8Array>; contentType: string; length: number } {
  const random = new Uint8Array(12);
  crypto.getRandomValues(random);
  const boundary = `----varia${Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  const quoted = (text: string) => text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(field)}"; filename="${quoted(fileName)}"\r\n` +
      `Content-Type: ${file.type || "application/octet-stream"}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      onProgress(0, file.size);
    },
    async pull(controller) {
      reader ??= file.stream().getReader();
      const { done, value } = await reader.read();
      if (done) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      sent += value.byteLength;
      controller.enqueue(value);
      onProgress(sent, file.size);
    },
    cancel(reason) {
      return reader?.cancel(reason);
    },
  });
  return {
    body,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.byteLength + file.size + tail.byteLength,
  };
}
