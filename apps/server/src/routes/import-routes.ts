import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import fastifyMultipart from "@fastify/multipart";
import {
  importGetJobStatus,
  importGetJobs,
  importJobListLimits,
  importTemplate,
  importUpload,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors";
import { registerContract } from "../http/contract-route";
import { csvDownload } from "../http/csv-download";
import type { AppDeps } from "../http/deps";
import { binaryFileKind, fileKindHeadBytes } from "../imports/file-kind";
import { enqueueImport, getImportJob, listImportJobs, workerThresholdBytes } from "../imports/import-jobs";
import { importLimits, invoiceTemplate } from "../imports/invoice-columns";
import { startUploadReading, takeUploadReading } from "../imports/upload-readings";
import { backupRoutes } from "./backup-routes";

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/**
 * A multipart body its parser cannot read (no boundary, garbage, cut short) is the caller's mistake:
 * 400 naming the part, where the parser's own error would be an unexpected one (500). Errors the
 * multipart plugin already answers as a client's (413 for the limits) keep their status.
 */
function notMultipart(error: unknown): never {
  if (error instanceof AppError) throw error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) throw error;
  const reason = error instanceof Error ? error.message : String(error);
  throw new AppError("BadRequest", `The upload is not a valid multipart/form-data body: ${reason}`, [
    { field: "csv", message: "is not a valid multipart/form-data body" },
  ]);
}

/** Whether the text holds a control character of ASCII (NUL, line breaks, DEL...). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 127) return true;
  }
  return false;
}

/** An upload's file and the reading made of it, gone. */
async function removeUpload(path: string) {
  await takeUploadReading(path)?.close();
  await rm(path, { force: true });
}

/** Import: CSV upload (answered at once with a job), job status and the template (docs/api.md, "Import jobs"). */
export async function importRoutes(app: FastifyInstance, deps: AppDeps) {
  await backupRoutes(app, deps);
  await app.register(fastifyMultipart, {
    limits: { fileSize: importLimits.maxFileBytes, files: 1, fields: 10, fieldSize: 1024 },
  });
  const uploads = join(deps.config.dataDir, "uploads");

  registerContract(app, deps, importUpload, async ({ auth, request }) => {
    if (!request.isMultipart()) {
      throw new AppError(
        "UnsupportedMediaType",
        "Unsupported content type: send multipart/form-data with the part 'csv'",
      );
    }
    const part = await request.file().catch(notMultipart);
    if (part?.fieldname !== "csv") {
      throw new AppError("BadRequest", "The upload needs the file in the multipart part 'csv'", [
        { field: "csv", message: "is required" },
      ]);
    }
    // The name is kept with the job: plain text, as a file system would name a file.
    if (hasControlCharacter(part.filename) || part.filename.length > 255) {
      throw new AppError("BadRequest", "The file name must be plain text of at most 255 characters", [
        { field: "csv", message: "has a file name with control characters or over 255 characters" },
      ]);
    }
    if (!/\.csv$/i.test(part.filename)) {
      throw new AppError("BadRequest", `'${part.filename}' is not a .csv file`, [
        { field: "csv", message: "must be a .csv file" },
      ]);
    }
    await mkdir(uploads, { recursive: true });
    const path = join(uploads, `${randomUUID()}.csv`);
    const hash = createHash("sha256");
    // The file's first bytes, to tell a workbook renamed to .csv from a CSV (binaryFileKind).
    let head = Buffer.alloc(0);
    // A large file is also read as it arrives (see upload-readings.ts), on a thread of its own.
    const reading =
      Number(request.headers["content-length"]) >= workerThresholdBytes ? startUploadReading() : null;
    // Whatever ends the upload short (the client going away, a broken body, the size limit, a
    // failed enqueue), its partial file goes with it: a file stays only for a queued job.
    try {
      // Streamed to disk while hashed: the file is never held in memory. What goes wrong reading
      // the body (or the client going away) is the caller's (400); writing the file, the server's.
      await pipeline(
        part.file,
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            if (head.length < fileKindHeadBytes)
              head = Buffer.concat([head, chunk.subarray(0, fileKindHeadBytes - head.length)]);
            reading?.push(chunk);
            done(null, chunk);
          },
        }),
        createWriteStream(path),
      ).catch((error: unknown) =>
        error === part.file.errored || request.raw.destroyed ? notMultipart(error) : Promise.reject(error),
      );
      if (part.file.truncated) {
        throw new AppError(
          "PayloadTooLarge",
          `The file is larger than the limit of ${mib(importLimits.maxFileBytes)}`,
        );
      }
      const kind = binaryFileKind(head);
      if (kind) {
        throw new AppError(
          "BadRequest",
          `'${part.filename}' is not a CSV file: it is ${kind}. Save it as CSV (comma-separated, UTF-8) and upload that`,
          [{ field: "csv", message: `is ${kind}, not a CSV file` }],
        );
      }
      // Kept before the job is sent: the job may start at once and look for it.
      reading?.keep(path);
      const key = request.headers["idempotency-key"];
      const queued = await enqueueImport(deps.jobs, {
        organisationId: auth!.organisation.id,
        userId: auth!.user.id,
        fileName: part.filename,
        filePath: path,
        sha256: hash.digest("hex"),
        idempotencyKey: typeof key === "string" && key ? key.slice(0, 200) : undefined,
      });
      if (queued.duplicate) await removeUpload(path);
      return queued;
    } catch (error) {
      reading?.discard();
      await removeUpload(path);
      throw error;
    }
  });

  registerContract(app, deps, importGetJobStatus, async ({ auth, query }) => {
    const job = await getImportJob(deps.db, auth!.organisation.id, query.JobGuid);
    if (!job) throw new AppError("NotFound", `No import job ${query.JobGuid}`);
    return job;
  });

  registerContract(app, deps, importGetJobs, async ({ auth, query }) =>
    listImportJobs(deps.db, auth!.organisation.id, query.Limit ?? importJobListLimits.default),
  );

  registerContract(app, deps, importTemplate, ({ reply }) => {
    return csvDownload(reply, invoiceTemplate, "varia-import-template.csv");
  });
}
