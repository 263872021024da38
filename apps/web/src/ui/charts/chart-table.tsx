import { type KeyboardEvent, useId, useState } from "react";
import { useFormat } from "../format";
import type { ChartProps, ValueKind } from "./chart-types";
import { type CellPosition, gridKeyMove } from "./grid-keys";

/** A cell of the table: what it says and where it leads when followed (a drill-down), if anywhere. */
interface Cell {
  text: string;
  href: string | null;
}

/**
 * The chart's numbers as a table, for screen readers. A point that leads somewhere when clicked (a
 * key and `onSelect`) is a link in it, so the keyboard reaches what the mouse does: the row's name
 * when every point of the row leads to the same place (a month of a stacked chart, a step of a
 * waterfall), else each value. While the focus is in it, the table shows under the chart, so the
 * focus is never out of sight.
 *
 * A table with links is a grid of one Tab stop: the arrows, Home and End move between its cells and
 * Enter follows a cell's link (apps/web/README.md, "Heavy libraries behind one door each").
 */
export function ChartTable({ series, title, valueKind = "money", onSelect }: ChartProps) {
  const format = useFormat();
  const captionId = useId();
  const [position, setPosition] = useState<CellPosition | null>(null);
  const write = (v: number | null) => {
    if (v === null) return "";
    const kind: ValueKind = valueKind;
    return kind === "money" ? format.money(v) : kind === "percent" ? format.percent(v) : format.count(v);
  };
  // A band is a range: its lower and upper bounds ('$908,805 – $946,806'), not its upper alone.
  const cellText = (s: ChartProps["series"][number], i: number) => {
    const value = s.values[i] ?? null;
    if (s.kind !== "band") return write(value);
    const lower = s.lower[i] ?? null;
    if (value === null || lower === null || lower === value) return write(value);
    return `${write(lower)} – ${write(value)}`;
  };
  const categories = [...new Set(series.flatMap((s) => s.categories))];
  const keyOf = (s: ChartProps["series"][number], category: string) => {
    const i = s.categories.indexOf(category);
    return i < 0 || !onSelect ? null : (s.keys?.[i] ?? null);
  };
  const linked = (href: string | null, text: string): Cell => ({ text, href: text ? href : null });
  const header: Cell[] = [
    { text: "Category", href: null },
    ...series.map((s) => ({ text: s.name, href: null })),
  ];
  const body: Cell[][] = categories.map((c) => {
    const keys = new Set(series.map((s) => keyOf(s, c)).filter((k) => k !== null));
    const rowKey = keys.size === 1 ? [...keys][0]! : null;
    return [
      linked(rowKey, c.replace(/\n/g, " ")),
      ...series.map((s) => {
        const i = s.categories.indexOf(c);
        const text = i < 0 ? "" : cellText(s, i);
        return linked(rowKey ? null : keyOf(s, c), text);
      }),
    ];
  });
  const rows = [header, ...body];

  // The cell the Tab key lands on: the one last focused, else the first link.
  const firstLink = rows.flatMap((r, row) => r.map((cell, col) => (cell.href ? { row, col } : null)));
  const fallback = firstLink.find((p) => p !== null) ?? null;
  const isGrid = fallback !== null;
  const current =
    position && position.row < rows.length && position.col < header.length ? position : fallback;
  const tabIndex = (row: number, col: number) =>
    !isGrid ? undefined : current?.row === row && current.col === col ? 0 : -1;

  const cellAt = (table: HTMLTableElement, at: CellPosition) => {
    const cell = table.rows[at.row]?.cells[at.col];
    return cell?.querySelector("a") ?? cell ?? null;
  };
  const positionOf = (target: EventTarget) => {
    const cell = (target as HTMLElement).closest?.("td, th") as HTMLTableCellElement | null;
    const row = cell?.parentElement as HTMLTableRowElement | null;
    return cell && row ? { row: row.rowIndex, col: cell.cellIndex } : null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const at = positionOf(event.target);
    if (!at || event.altKey || event.shiftKey) return;
    const to = gridKeyMove(event.key, event.ctrlKey || event.metaKey, at, rows.length, header.length);
    if (!to) return;
    event.preventDefault();
    cellAt(event.currentTarget, to)?.focus();
  };

  const content = (cell: Cell, row: number, col: number) =>
    cell.href && onSelect ? (
      <a
        href={cell.href}
        tabIndex={tabIndex(row, col)}
        onClick={(event) => {
          if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
          event.preventDefault();
          onSelect(cell.href!);
        }}
      >
        {cell.text}
      </a>
    ) : (
      cell.text
    );
  // A cell without a link takes the focus itself; one with a link hands it to the link.
  const cellFocus = (cell: Cell, row: number, col: number) => (cell.href ? undefined : tabIndex(row, col));

  // A table sizes itself to its content whatever its width: the hiding is done by a box around it.
  return (
    <div className="chart__data">
      <table
        // A grid of numbers to read, none to edit.
        {...(isGrid ? { role: "grid", "aria-labelledby": captionId, "aria-readonly": true } : {})}
        onKeyDown={isGrid ? onKeyDown : undefined}
        onFocus={isGrid ? (event) => setPosition(positionOf(event.target)) : undefined}
      >
        <caption id={captionId}>{title}</caption>
        <thead>
          <tr>
            {header.map((cell, col) => (
              <th scope="col" key={col === 0 ? "" : cell.text} tabIndex={cellFocus(cell, 0, col)}>
                {cell.text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((cells, i) => (
            <tr key={categories[i]}>
              {cells.map((cell, col) =>
                col === 0 ? (
                  <th scope="row" key="" tabIndex={cellFocus(cell, i + 1, col)}>
                    {content(cell, i + 1, col)}
                  </th>
                ) : (
                  <td key={series[col - 1]!.name} tabIndex={cellFocus(cell, i + 1, col)}>
                    {content(cell, i + 1, col)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
