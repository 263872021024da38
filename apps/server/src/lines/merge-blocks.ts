import { compareKeys, type LineBlock } from "./line-block";

/**
 * The lines of several blocks in key order (invoice number, then line number): each block is sorted
 * already, so this merges them, answering (block, row) pairs. Blocks are few (one per import batch),
 * so the smallest head is found by a scan rather than a heap.
 */
export function* mergeBlocks(
  blocks: readonly LineBlock[],
  keep: (block: LineBlock, row: number) => boolean = () => true,
): Generator<[block: LineBlock, row: number]> {
  const heads = blocks.map(() => 0);
  const advance = (b: number) => {
    const block = blocks[b]!;
    let row = heads[b]!;
    while (row < block.count && !keep(block, row)) row++;
    heads[b] = row;
  };
  for (let b = 0; b < blocks.length; b++) advance(b);
  for (;;) {
    let best = -1;
    for (let b = 0; b < blocks.length; b++) {
      const row = heads[b]!;
      const block = blocks[b]!;
      if (row >= block.count) continue;
      if (best < 0) {
        best = b;
        continue;
      }
      const other = blocks[best]!;
      const otherRow = heads[best]!;
      if (
        compareKeys(
          block.invoiceNumbers[row]!,
          block.columns.lineNumber[row]!,
          other.invoiceNumbers[otherRow]!,
          other.columns.lineNumber[otherRow]!,
        ) < 0
      )
        best = b;
    }
    if (best < 0) return;
    const row = heads[best]!;
    yield [blocks[best]!, row];
    heads[best] = row + 1;
    advance(best);
  }
}
