import { useLayoutEffect } from "react";
import { useFirstDrawingBox } from "../first-drawing";
import { useFormat } from "../format";
import { cellShown } from "./cell-text";
import { columnWidths } from "./columns";
import type { GridColumn, ServerPage } from "./grid-types";

const numeric = new Set(["money", "percent", "count", "number"]);

/** Pointing at the table or moving the focus into it: AG Grid is wanted now. */
const wantedOn = ["pointerenter", "focusin"] as const;

/**
 * A grid's first page as a plain table, drawn at once, before AG Grid is loaded: the rows, cells
 * and pager text look as AG Grid will draw them (the same theme's sizes and colours in ui.css), so
 * that the grid taking its place changes nothing a person would notice. It is not interactive:
 * pointing at it or moving the focus into it asks for AG Grid at once (`onWanted`). For the keyboard
 * it is what AG Grid will be: one Tab stop, its first column's header (its links are left out of
 * the Tab order, as AG Grid's are), and the grid door hands that focus on to AG Grid (Grid.tsx).
 */
export function FirstPageTable<Row>({
  columns,
  page,
  pageSize,
  label,
  height,
  emptyText,
  onWanted,
}: {
  columns: GridColumn<Row>[];
  page: ServerPage<Row>;
  pageSize: number;
  label: string;
  height: number;
  emptyText?: string;
  onWanted: () => void;
}) {
  const format = useFormat();
  const { box, width } = useFirstDrawingBox<HTMLDivElement>(onWanted, wantedOn);
  const widths = width === null ? null : columnWidths(columns, width - 2);
  const rows = page.rows.slice(0, pageSize);
  const pages = Math.max(1, Math.ceil(page.rowCount / pageSize));
  // The cells' links come from the screens' renderers: taken out of the Tab order here.
  useLayoutEffect(() => {
    for (const link of box.current?.querySelectorAll("a") ?? []) link.tabIndex = -1;
  });
  return (
    <div className="grid first-page" style={{ height }} ref={box} data-first-page="true">
      {widths && (
        <>
          <div className="first-page__scroll">
            <table style={{ width: widths.reduce((a, b) => a + b, 0) }}>
              <caption className="visually-hidden">{label}</caption>
              <colgroup>
                {columns.map((c, i) => (
                  <col key={c.field} style={{ width: widths[i] }} />
                ))}
              </colgroup>
              <thead>
                <tr>
                  {columns.map((c, i) => (
                    <th
                      key={c.field}
                      scope="col"
                      tabIndex={i === 0 ? 0 : undefined}
                      className={`${numeric.has(c.kind) ? "first-page__number" : ""} ${c.pinned ? "first-page__pinned" : ""}`}
                    >
                      {c.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, r) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the first page's rows do not move
                  <tr key={r} className={r % 2 === 1 ? "first-page__odd" : undefined}>
                    {columns.map((c) => (
                      <td
                        key={c.field}
                        className={`${numeric.has(c.kind) ? "first-page__number" : ""} ${c.pinned ? "first-page__pinned" : ""}`}
                      >
                        <div className="first-page__cell">{cellShown(c, row, format)}</div>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {rows.length === 0 && (
              <p className="first-page__empty">{emptyText ?? "No information available to show."}</p>
            )}
          </div>
          <div className="first-page__pager">
            <span>
              {rows.length === 0
                ? "0 to 0 of 0"
                : `1 to ${format.count(rows.length)} of ${format.count(page.rowCount)}`}
            </span>
            <span>Page 1 of {format.count(pages)}</span>
          </div>
        </>
      )}
    </div>
  );
}
