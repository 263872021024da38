/** A card's search as its call's `search` field: trimmed, and left out when nothing is left. */
export function searchParam(search: string): { search?: string } {
  const trimmed = search.trim();
  return trimmed ? { search: trimmed } : {};
}
