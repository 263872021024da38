import { periodFormat, periodFromKey } from "@varia/period";
import { useMemo } from "react";
import { Chart, chartColors } from "../../../ui/charts/Chart";
import { DataGrid, type GridColumn, moneyColumn, textColumn } from "../../../ui/grid/Grid";
import { measureName, twoLines } from "../../variance-labels";
import { useCardDrawn, useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";

/** The forecast report in cents: the history (actual) and the next months with their interval. */
export interface ForecastData {
  points: {
    month: string;
    actual: boolean;
    valueCents: number;
    lowerCents: number | null;
    upperCents: number | null;
  }[];
  fittedMonths: number | null;
  alpha: number | null;
  beta: number | null;
  backtestMonths: number | null;
  backtestMaeCents: number | null;
  backtestMape: number | null;
  notes: string[];
}

const month = (key: string) => periodFormat(periodFromKey(key));

/**
 * MRR of the months the forecast is fitted on (bars), then the forecast as a dashed line with its 80%
 * interval shaded; the line starts at the last actual month so the two join.
 */
export function ForecastChartRenderer({ data, filter, expanded }: CardRenderProps<ForecastData>) {
  const drawn = useCardDrawn();
  const shown = expanded ? data.points : data.points.slice(-24);
  const categories = shown.map((p) => twoLines(month(p.month)));
  const lastActual = shown.findLastIndex((p) => p.actual);
  const ahead = (i: number, value: number | null) => (i >= lastActual ? value : null);
  return (
    <Chart
      title={`${measureName(filter.dataType)}: the months so far and the forecast of the next 12, with its 80% interval`}
      height={expanded ? 440 : 340}
      showLegend
      series={[
        {
          kind: "bar",
          name: "Actual",
          categories,
          values: shown.map((p) => (p.actual ? p.valueCents : null)),
          color: chartColors.brandSoft,
        },
        {
          kind: "band",
          name: "80% interval",
          categories,
          values: shown.map((p, i) => ahead(i, p.actual ? p.valueCents : p.upperCents)),
          lower: shown.map((p, i) => ahead(i, p.actual ? p.valueCents : p.lowerCents)),
          color: "rgba(79, 70, 229, 0.16)",
        },
        {
          kind: "line",
          name: "Forecast",
          categories,
          values: shown.map((p, i) => ahead(i, p.valueCents)),
          color: chartColors.brand,
          dashed: true,
          markers: true,
        },
      ]}
      onDrawn={drawn}
    />
  );
}

type Row = ForecastData["points"][number];

/** The same numbers as a table: the forecast months first, then the history, newest first. */
export function ForecastTableRenderer({ data, expanded }: CardRenderProps<ForecastData>) {
  useDrawnOnMount();
  const rows = useMemo(() => [...data.points].reverse(), [data.points]);
  const columns = useMemo<GridColumn<Row>[]>(
    () => [
      textColumn<Row>("month", "Month", { value: (r) => month(r.month), sortable: false, minWidth: 120 }),
      textColumn<Row>("kind", "Kind", {
        value: (r) => (r.actual ? "Actual" : "Forecast"),
        sortable: false,
        minWidth: 110,
      }),
      moneyColumn<Row>("valueCents", "MRR", { sortable: false, width: 160 }),
      moneyColumn<Row>("lowerCents", "Lower (80%)", { sortable: false, width: 160 }),
      moneyColumn<Row>("upperCents", "Upper (80%)", { sortable: false, width: 160 }),
    ],
    [],
  );
  return (
    <DataGrid<Row>
      label="Forecast and history"
      columns={columns}
      rows={rows}
      pageSize={expanded ? 50 : 12}
      height={expanded ? 720 : 40 + 12 * 40 + 50}
      getRowId={(r) => r.month}
    />
  );
}
