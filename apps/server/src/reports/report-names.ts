import type { Cube } from "@varia/variance";

/** Display names of the cube's dimensions for report rows. */
export function clientCode(cube: Cube, id: number): string {
  return cube.clients.get(id)?.code ?? String(id);
}

export function clientName(cube: Cube, id: number): string {
  return cube.clients.get(id)?.name ?? "";
}

export function itemCode(cube: Cube, id: number): string {
  return cube.items.get(id)?.code ?? String(id);
}

export function itemName(cube: Cube, id: number): string {
  return cube.items.get(id)?.name ?? "";
}

/** A salesperson's name; "" for none (id 0). */
export function salespersonName(cube: Cube, id: number): string {
  return cube.salespeople.get(id)?.name ?? "";
}

/** Order of code for stable tie-breaks. */
export function byCode(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
