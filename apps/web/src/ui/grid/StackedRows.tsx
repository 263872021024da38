import { useFormat } from "../format";
import { cellShown, cellText } from "./cell-text";
import { cellValue } from "./columns";
import type { GridColumn } from "./grid-types";

/**
 * A small table's rows on a phone (the grid door's `stackOnPhone`): a list with one block a row,
 * titled by its first column, the other columns named beside their values, so that every column is
 * in view without scrolling sideways (apps/web/README.md, "Narrow screens"). An empty value is left
 * out rather than named with nothing after it.
 */
export function StackedRows<Row>({
  columns,
  rows,
  getRowId,
  emptyText,
}: {
  columns: GridColumn<Row>[];
  rows: Row[];
  getRowId?: (row: Row) => string;
  emptyText?: string;
}) {
  const format = useFormat();
  const [title, ...rest] = columns;
  if (!title) return null;
  if (rows.length === 0)
    return <p className="stacked-rows__empty">{emptyText ?? "No information available to show."}</p>;
  return (
    // The door's group around it carries the table's name.
    <ul className="stacked-rows">
      {rows.map((row, index) => (
        <li key={getRowId ? getRowId(row) : index} className="stacked-rows__row">
          <div className="stacked-rows__title">{cellShown(title, row, format)}</div>
          <dl className="stacked-rows__fields">
            {rest.map((column) =>
              cellText(column.kind, cellValue(column, row), format) === "" ? null : (
                <div key={column.field} className="stacked-rows__field">
                  <dt>{column.header}</dt>
                  <dd>{cellShown(column, row, format)}</dd>
                </div>
              ),
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}
