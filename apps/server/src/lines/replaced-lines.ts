import type { BulkSession } from "../db/database";
import { LineBlockBuilder } from "./line-block";
import {
  type BuiltBlock,
  buildBlock,
  deleteLineBlocks,
  type StoredBlock,
  writeLineBlocks,
} from "./line-blocks-store";

/**
 * The stored lines an import replaces (DESIGN 6: a line with the same invoice number and line
 * number replaces the stored one). The stored keys are indexed once; each batch of the file marks
 * the lines it replaces; at the end the blocks that lost lines are written again without them.
 */
export class ReplacedLines {
  /** Per invoice number: (line number, block index, row) triples. */
  private readonly index = new Map<string, number[]>();
  private readonly removed: (Set<number> | undefined)[];
  private count = 0;

  constructor(private readonly blocks: readonly StoredBlock[]) {
    this.removed = blocks.map(() => undefined);
    blocks.forEach(({ block }, b) => {
      const lineNumbers = block.columns.lineNumber;
      for (let row = 0; row < block.count; row++) {
        const invoice = block.invoiceNumbers[row]!;
        const entries = this.index.get(invoice);
        if (entries) entries.push(lineNumbers[row]!, b, row);
        else this.index.set(invoice, [lineNumbers[row]!, b, row]);
      }
    });
  }

  /** The rows of stored block `index` that were marked (undefined: none). */
  removedRows(index: number): ReadonlySet<number> | undefined {
    return this.removed[index];
  }

  /** How many stored lines were marked. */
  get replaced() {
    return this.count;
  }

  /** Marks the stored lines with these keys as replaced. */
  mark(keys: { invoiceNumbers: readonly string[]; lineNumbers: ArrayLike<number> }) {
    for (let k = 0; k < keys.invoiceNumbers.length; k++) {
      const entries = this.index.get(keys.invoiceNumbers[k]!);
      if (!entries) continue;
      const lineNumber = keys.lineNumbers[k]!;
      for (let e = 0; e < entries.length; e += 3) {
        if (entries[e] !== lineNumber) continue;
        const block = entries[e + 1]!;
        let rows = this.removed[block];
        if (!rows) this.removed[block] = rows = new Set();
        if (!rows.has(entries[e + 2]!)) this.count++;
        rows.add(entries[e + 2]!);
      }
    }
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
      if (rows.size === block.count) continue;
      const builder = new LineBlockBuilder(block.count - rows.size);
      for (let row = 0; row < block.count; row++) if (!rows.has(row)) builder.addFrom(block, row);
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
