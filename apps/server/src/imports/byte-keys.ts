/**
 * A set of byte strings (UTF-8 text) numbered 0, 1, … in the order they were added: what an import
 * looks its invoice numbers, client and item codes and salespeople up in by their bytes in the
 * file, without cutting a string for each line. Open addressing on FNV-1a hashes; the keys' bytes
 * live in one growing buffer.
 */
export class ByteKeys {
  private arena = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private starts = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private table = new Int32Array(2048).fill(-1);
  private count = 0;
  /** Whether the last `add` added its key (rather than finding it). */
  added = false;
  /** The key last added or found: consecutive lines often name the same one. */
  private last = -1;

  get size() {
    return this.count;
  }

  /** The number of the key `bytes[start, end)`, added if new (see `added`). */
  add(bytes: Uint8Array, start: number, end: number): number {
    this.added = false;
    if (this.last >= 0 && this.equals(this.last, bytes, start, end)) return this.last;
    const hash = hashOf(bytes, start, end);
    let index = this.lookup(bytes, start, end, hash);
    if (index < 0) {
      index = this.insert(bytes, start, end, hash);
      this.added = true;
    }
    this.last = index;
    return index;
  }

  /** The number of the key `bytes[start, end)`; -1 if it is not here. */
  find(bytes: Uint8Array, start: number, end: number): number {
    if (this.last >= 0 && this.equals(this.last, bytes, start, end)) return this.last;
    const index = this.lookup(bytes, start, end, hashOf(bytes, start, end));
    if (index >= 0) this.last = index;
    return index;
  }

  private lookup(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = this.table[slot]!;
      if (index < 0) return -1;
      if (this.hashes[index] === hash && this.equals(index, bytes, start, end)) return index;
    }
  }

  private equals(index: number, bytes: Uint8Array, start: number, end: number): boolean {
    const at = this.starts[index]!;
    if (this.keyEnd(index) - at !== end - start) return false;
    const arena = this.arena;
    for (let i = start, k = at; i < end; i++, k++) if (arena[k] !== bytes[i]) return false;
    return true;
  }

  /** As `add`, of a string. */
  addText(text: string): number {
    const bytes = Buffer.from(text, "utf8");
    return this.add(bytes, 0, bytes.length);
  }

  /** Key `index` as text. */
  text(index: number): string {
    return this.arena.toString("utf8", this.starts[index], this.keyEnd(index));
  }

  private keyEnd(index: number): number {
    return index + 1 < this.count ? this.starts[index + 1]! : this.used;
  }

  private insert(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    if (this.used + length > this.arena.length) {
      const arena = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + length));
      this.arena.copy(arena, 0, 0, this.used);
      this.arena = arena;
    }
    for (let i = start, k = this.used; i < end; i++, k++) this.arena[k] = bytes[i]!;
    const index = this.count++;
    if (index === this.starts.length) {
      this.starts = grown(this.starts);
      this.hashes = grown(this.hashes);
    }
    this.starts[index] = this.used;
    this.hashes[index] = hash;
    this.used += length;
    if (this.count * 2 > this.table.length) this.rehash();
    else this.place(index);
    return index;
  }

  private place(index: number) {
    const mask = this.table.length - 1;
    let slot = this.hashes[index]! & mask;
    while (this.table[slot]! >= 0) slot = (slot + 1) & mask;
    this.table[slot] = index;
  }

  private rehash() {
    this.table = new Int32Array(this.table.length * 2).fill(-1);
    for (let index = 0; index < this.count; index++) this.place(index);
  }
}

/**
 * Pairs of whole numbers (an invoice's number in `ByteKeys`, a line number) with the record each
 * was first on: how an import finds a key given twice in a file.
 */
export class PairKeys {
  private firsts = new Int32Array(1024);
  private seconds = new Int32Array(1024);
  private records = new Int32Array(1024);
  private table = new Int32Array(2048).fill(-1);
  private count = 0;

  /** The record the pair was first on; -1 if it is not here. */
  find(first: number, second: number): number {
    const index = this.table[this.probe(first, second)]!;
    return index < 0 ? -1 : this.records[index]!;
  }

  /** Records the pair; answers the record it was first on, or -1 if it is new. */
  add(first: number, second: number, record: number): number {
    const slot = this.probe(first, second);
    if (this.table[slot]! >= 0) return this.records[this.table[slot]!]!;
    const index = this.count++;
    if (index === this.firsts.length) {
      this.firsts = grown(this.firsts);
      this.seconds = grown(this.seconds);
      this.records = grown(this.records);
    }
    this.firsts[index] = first;
    this.seconds[index] = second;
    this.records[index] = record;
    if (this.count * 2 > this.table.length) this.rehash();
    else this.table[slot] = index;
    return -1;
  }

  /** The slot of the table that holds the pair, or the free one where it would go. */
  private probe(first: number, second: number): number {
    const mask = this.table.length - 1;
    for (let slot = pairHash(first, second) & mask; ; slot = (slot + 1) & mask) {
      const index = this.table[slot]!;
      if (index < 0 || (this.firsts[index] === first && this.seconds[index] === second)) return slot;
    }
  }

  private rehash() {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = pairHash(this.firsts[index]!, this.seconds[index]!) & mask;
      while (table[slot]! >= 0) slot = (slot + 1) & mask;
      table[slot] = index;
    }
    this.table = table;
  }
}

/** FNV-1a of the bytes. */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash;
}

/** Mixes two numbers so that every bit of both reaches the low bits a table uses. */
function pairHash(first: number, second: number): number {
  let hash = Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x7feb352d);
  return hash ^ (hash >>> 15);
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
