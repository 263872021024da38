import type { DimensionChanges, KnownDimensions } from "./read-import-file";

/**
 * The clients, items and salespeople a file names, in the order it first names them: the reader
 * gives the first client id 1, the next 2, and so on (likewise items and salespeople), without
 * knowing the organisation's data, so that a file can be read before its import runs.
 */
export interface FileDimensions {
  clients: { code: string; name: string }[];
  items: { code: string; name: string; stockType: string; category: string | null }[];
  salespeople: string[];
}

/**
 * Gives a file's provisional ids the organisation's ids: a known code keeps its id, a new one takes
 * the next of its sequence (the import holds the lock of `readKnownDimensions`). Dimensions come in
 * batch by batch, in the reader's order; `map` turns a provisional id into a stored one.
 */
export class DimensionResolver {
  readonly map: Record<"clientId" | "itemId" | "salespersonId", number[]> = {
    clientId: [0],
    itemId: [0],
    salespersonId: [0],
  };
  private readonly clients: Map<string, number>;
  private readonly items: Map<string, number>;
  private readonly salespeople: Map<string, number>;
  private nextClient: number;
  private nextItem: number;
  private nextSalesperson: number;
  private readonly changed: DimensionChanges = { clients: [], items: [], salespeople: [] };

  constructor(known: KnownDimensions) {
    this.clients = new Map(known.clients);
    this.items = new Map(known.items);
    this.salespeople = new Map(known.salespeople);
    this.nextClient = known.nextClientId;
    this.nextItem = known.nextItemId;
    this.nextSalesperson = known.nextSalespersonId;
  }

  /** Takes the dimensions a batch names first (a file's first line of each gives its name). */
  add(found: FileDimensions) {
    for (const client of found.clients) {
      const id = this.clients.get(client.code) ?? this.nextClient++;
      this.map.clientId.push(id);
      this.changed.clients.push({ id, ...client });
    }
    for (const item of found.items) {
      const id = this.items.get(item.code) ?? this.nextItem++;
      this.map.itemId.push(id);
      this.changed.items.push({ id, ...item });
    }
    for (const name of found.salespeople) {
      let id = this.salespeople.get(name);
      if (id === undefined) {
        id = this.nextSalesperson++;
        this.salespeople.set(name, id);
        this.changed.salespeople.push({ id, name });
      }
      this.map.salespersonId.push(id);
    }
  }

  /** What the import writes of clients, items and salespeople. */
  changes(): DimensionChanges {
    return this.changed;
  }
}
