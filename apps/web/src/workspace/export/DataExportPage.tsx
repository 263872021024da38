import { exportRawData } from "@varia/contracts";
import { selectActualPeriods } from "@varia/machines";
import { periodFormat, periodKey, periodsSortNewestFirst } from "@varia/period";
import { useState } from "react";
import { api } from "../../api";
import { PageFrame } from "../../pages/PageFrame";
import { StartupContext } from "../../shell/startup-context";
import { useFormat } from "../../ui/format";
import { Icon } from "../../ui/Icon";
import { LookupPicker } from "../../ui/LookupPicker";
import { SelectField } from "../../ui/Select";
import { saveBytes } from "../../ui/save-file";
import { NoCostsNote } from "../filters/DataTypeToggle";
import { searchClients, searchItems, searchSalespeople } from "../filters/lookups";
import { useNoCostsNote } from "../filters/use-costs-imported";
import { useViewFilter } from "../filters/use-view-filter";
import { NoDataYet } from "../NoDataYet";

type Picked = { key: string; label: string } | null;

/** A size in bytes as people read it: 950 bytes, 12.3 KB, 4.56 MB. */
export function byteSize(bytes: number, format: { locale: string }): string {
  const number = (n: number, digits: number) =>
    n.toLocaleString(format.locale, { maximumFractionDigits: digits });
  if (bytes < 1000) return `${number(bytes, 0)} bytes`;
  if (bytes < 1_000_000) return `${number(bytes / 1000, 1)} KB`;
  return `${number(bytes / 1_000_000, 2)} MB`;
}

/**
 * `/variance/settings/export`: the raw export of invoice lines (Data/ExportRawData) as CSV, for two
 * months and a client, service or salesperson; Download says how many bytes have arrived while the
 * file streams. No measure to choose: every line has its amount, cost and margin
 * (docs/import.md, "Exports"), and the note says when margin equals revenue.
 */
export function DataExportPage() {
  const format = useFormat();
  const { filter } = useViewFilter();
  const periods = StartupContext.useSelector(selectActualPeriods);
  const months = [
    { value: "", label: "Any month" },
    ...periodsSortNewestFirst(periods).map((p) => ({ value: periodKey(p), label: periodFormat(p) })),
  ];
  const costsNote = useNoCostsNote(true);
  const [dateFrom, setDateFrom] = useState<string>(filter.dateFrom ?? "");
  const [dateTo, setDateTo] = useState<string>(filter.dateTo ?? "");
  const [client, setClient] = useState<Picked>(null);
  const [item, setItem] = useState<Picked>(null);
  const [salesperson, setSalesperson] = useState<Picked>(null);
  const [state, setState] = useState<
    | { kind: "idle" }
    | { kind: "streaming"; bytes: number }
    | { kind: "done"; bytes: number; fileName: string }
    | { kind: "failed" }
  >({ kind: "idle" });
  const wrongOrder = Boolean(dateFrom && dateTo && dateFrom > dateTo);

  const download = async () => {
    setState({ kind: "streaming", bytes: 0 });
    try {
      const file = await api.download(
        exportRawData,
        {
          query: {
            ...(dateFrom ? { dateFrom } : {}),
            ...(dateTo ? { dateTo } : {}),
            ...(client ? { clientID: client.key } : {}),
            ...(item ? { stockItemID: item.key } : {}),
            ...(salesperson ? { salespersonID: salesperson.key } : {}),
          },
        },
        { onProgress: (bytes) => setState({ kind: "streaming", bytes }) },
      );
      const fileName = file.fileName ?? "invoice-lines.csv";
      saveBytes(fileName, file.body, "text/csv;charset=utf-8");
      setState({ kind: "done", bytes: file.body.length, fileName });
    } catch {
      setState({ kind: "failed" });
    }
  };

  if (periods.length === 0)
    return (
      <NoDataYet title="Data Export">
        <p>There are no invoice lines to export: the lines an import brings are downloaded here as CSV.</p>
      </NoDataYet>
    );
  return (
    <PageFrame title="Data Export">
      <p className="page__subtitle">
        Every invoice line behind the figures, as CSV (a spreadsheet opens it; cells that would run as a
        formula are neutralised): invoice, client, service, salesperson, quantity, amount, cost and margin.
      </p>
      <form
        className="card export-form"
        aria-label="What to export"
        onSubmit={(event) => {
          event.preventDefault();
          if (!wrongOrder && state.kind !== "streaming") void download();
        }}
      >
        <div className="report-filters">
          <SelectField label="From" options={months} value={dateFrom} onChange={setDateFrom} />
          <SelectField label="To" options={months} value={dateTo} onChange={setDateTo} />
          <LookupPicker label="Client" search={searchClients} value={client} onChange={setClient} />
          <LookupPicker label="Service" search={searchItems} value={item} onChange={setItem} />
          <LookupPicker
            label="Salesperson"
            search={searchSalespeople}
            value={salesperson}
            onChange={setSalesperson}
          />
        </div>
        {costsNote ? <NoCostsNote text={costsNote} /> : null}
        {wrongOrder ? (
          <p className="form__error" role="alert">
            The first month must come before the second.
          </p>
        ) : null}
        <div className="report-form__actions export-form__actions">
          <p className="export-form__status" role="status" aria-live="polite">
            {state.kind === "streaming"
              ? `Downloading… ${byteSize(state.bytes, format)} received`
              : state.kind === "done"
                ? `Downloaded ${state.fileName} (${byteSize(state.bytes, format)})`
                : state.kind === "failed"
                  ? "The export failed. Please try again."
                  : ""}
          </p>
          <button
            type="submit"
            className="button button--primary"
            disabled={wrongOrder || state.kind === "streaming"}
          >
            <Icon name="download" size={16} />
            {state.kind === "streaming" ? "Downloading…" : "Download"}
          </button>
        </div>
      </form>
    </PageFrame>
  );
}
