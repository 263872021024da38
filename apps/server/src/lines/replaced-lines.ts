import type { BulkSession } from "../db/database";
import { ByteKeys, PairKeys } from "./byte-keys";
import { type LineBlock, LineBlockBuilder } from "./line-block";
import {
  type BuiltBlock,
  buildBlock,
  deleteLineBlocks,
  type StoredBlock,
  writeLineBlocks,
} from "./line-blocks-store";

/**
 * The stored lines an import replaces (DESIGN 6: a line with the same invoice number and line
 * number replaces the stored one). The stored keys are indexed once, by the bytes of their invoice
 * numbers (no string is cut for them); each block of the file marks the lines it replaces; at the
 * end the blocks that lost lines are written again without them. Stored keys are unique (every
 * import keeps them so).
 */
export class ReplacedLines {
  private readonly invoices = new ByteKeys();
  /** (invoice, line number) to the line's row among all stored blocks' rows. */
  private readonly keys = new PairKeys();
  /** Where each stored block's rows start among all rows. */
  private readonly firstRows: number[] = [];
  /** Per stored block, 1 for a row that was marked (undefined: none was). */
  private readonly removed: (Uint8Array | undefined)[];
  private readonly removedCount: number[];
  private count = 0;

  constructor(private readonly blocks: readonly StoredBlock[]) {
    this.removed = blocks.map(() => undefined);
    this.removedCount = blocks.map(() => 0);
    let rows = 0;
    for (const { block } of blocks) {
      this.firstRows.push(rows);
      const { invoiceText, invoiceOffsets, columns } = block;
      for (let row = 0; row < block.count; row++) {
        const invoice = this.invoices.add(invoiceText, invoiceOffsets[row]!, invoiceOffsets[row + 1]!);
        this.keys.add(invoice, columns.lineNumber[row]!, rows + row);
      }
      rows += block.count;
    }
  }

  /** The rows of stored block `index` that were marked (1), or undefined when none was. */
  removedRows(index: number): Uint8Array | undefined {
    return this.removed[index];
  }

  /** How many stored lines were marked. */
  get replaced() {
    return this.count;
  }

  /** Marks the stored lines with the keys of these lines (a block of the file) as replaced. */
  mark(lines: Pick<LineBlock, "count" | "invoiceText" | "invoiceOffsets" | "columns">) {
    const { invoiceText, invoiceOffsets, columns } = lines;
    for (let k = 0; k < lines.count; k++) {
      const invoice = this.invoices.find(invoiceText, invoiceOffsets[k]!, invoiceOffsets[k + 1]!);
      if (invoice < 0) continue;
      const at = this.keys.find(invoice, columns.lineNumber[k]!);
      if (at < 0) continue;
      const block = this.blockOf(at);
      this.removed[block] ??= new Uint8Array(this.blocks[block]!.block.count);
      const rows = this.removed[block];
      const row = at - this.firstRows[block]!;
      if (rows[row]) continue;
      rows[row] = 1;
      this.removedCount[block]!++;
      this.count++;
    }
  }

  /** The stored block that holds row `at` of all rows. */
  private blockOf(at: number): number {
    let low = 0;
    let high = this.firstRows.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.firstRows[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The blocks that lost lines (to delete) and what is left of them (to write again). */
  plan(): { deleteIds: number[]; rewritten: { jobId: string | null; block: BuiltBlock }[] } {
    const deleteIds: number[] = [];
    const rewritten: { jobId: string | null; block: BuiltBlock }[] = [];
    for (let b = 0; b < this.blocks.length; b++) {
      const rows = this.removed[b];
      if (!rows) continue;
      const { id, jobId, block } = this.blocks[b]!;
      deleteIds.push(id);
      const left = block.count - this.removedCount[b]!;
      if (left === 0) continue;
      const builder = new LineBlockBuilder(left);
      for (let row = 0; row < block.count; row++) if (!rows[row]) builder.addFrom(block, row);
      rewritten.push({ jobId, block: buildBlock(builder) });
    }
    return { deleteIds, rewritten };
  }

  /** Writes the blocks that lost lines again without them (a block left empty is deleted). */
  async rewrite(session: BulkSession, organisationId: string) {
    const { deleteIds, rewritten } = this.plan();
    await deleteLineBlocks(session.db, organisationId, deleteIds);
    for (const { jobId, block } of rewritten) await writeLineBlocks(session, organisationId, jobId, [block]);
  }
}
