import { compareKeys, type LineBlock } from "./line-block";

/**
 * The lines of several blocks that `keep` keeps, in key order (invoice number, then line number),
 * as (block, row) pairs: each block's kept rows are sorted, then the blocks merged. Blocks are few
 * (one per import batch), so the smallest head is found by a scan rather than a heap.
 */
export function* mergeBlocks(
  blocks: readonly LineBlock[],
  keep: (block: LineBlock, row: number) => boolean = () => true,
): Generator<[block: LineBlock, row: number]> {
  const orders = blocks.map((block) => {
    const rows: number[] = [];
    for (let row = 0; row < block.count; row++) if (keep(block, row)) rows.push(row);
    const numbers = block.invoiceNumbers;
    const lines = block.columns.lineNumber;
    return rows.sort((a, b) => compareKeys(numbers[a]!, lines[a]!, numbers[b]!, lines[b]!));
  });
  const heads = blocks.map(() => 0);
  for (;;) {
    let best = -1;
    let bestRow = 0;
    for (let b = 0; b < blocks.length; b++) {
      const row = orders[b]![heads[b]!];
      if (row === undefined) continue;
      const block = blocks[b]!;
      if (best >= 0) {
        const other = blocks[best]!;
        const ahead = compareKeys(
          block.invoiceNumbers[row]!,
          block.columns.lineNumber[row]!,
          other.invoiceNumbers[bestRow]!,
          other.columns.lineNumber[bestRow]!,
        );
        if (ahead >= 0) continue;
      }
      best = b;
      bestRow = row;
    }
    if (best < 0) return;
    yield [blocks[best]!, bestRow];
    heads[best]!++;
  }
}
