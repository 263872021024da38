/**
 * A cell whose value does not fit its column shows it cut off with '…': pointed at, it names the
 * whole value in its title (the browser's tooltip), so that a long client's or service's name can
 * be read without widening the column (apps/web/README.md, "Heavy libraries behind one door each").
 * A value that fits has no title: nothing pops up over what is already there to read.
 */
export function titleIfCut(cell: HTMLElement | null) {
  if (!cell) return;
  const text = cell.textContent?.trim() ?? "";
  const parts = [cell, ...cell.querySelectorAll<HTMLElement>("*")];
  const cut = parts.some((part) => part.clientWidth > 0 && part.scrollWidth > part.clientWidth + 1);
  if (cut && text) cell.title = text;
  else cell.removeAttribute("title");
}
