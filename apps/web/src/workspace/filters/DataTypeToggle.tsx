import { Segmented } from "../../ui/Segmented";
import { useNoCostsNote } from "./use-costs-imported";
import type { DataType } from "./view-filter";

/** The two measures, as the switch offers them. */
export const dataTypeOptions: { value: DataType; label: string }[] = [
  { value: "Revenue", label: "Revenue" },
  { value: "Margin", label: "Margin" },
];

/**
 * Revenue or margin: what every number of the view measures. With Margin chosen in an organisation
 * whose recurring lines carry no cost, a note under it says that margin equals revenue
 * (docs/behaviour.md, "Revenue and margin").
 */
export function DataTypeToggle({
  value,
  onChange,
}: {
  value: DataType;
  onChange: (value: DataType) => void;
}) {
  const note = useNoCostsNote(value === "Margin");
  return (
    <div className="data-type">
      <Segmented
        label="Measure"
        options={dataTypeOptions}
        value={value}
        onChange={(v) => onChange(v as DataType)}
      />
      {note ? <NoCostsNote text={note} /> : null}
    </div>
  );
}

/** The note itself (also on the data export, whose lines carry both measures). */
export function NoCostsNote({ text }: { text: string }) {
  return (
    <p className="data-type__note" role="note">
      {text}
    </p>
  );
}
