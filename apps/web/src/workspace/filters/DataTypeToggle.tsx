import { Segmented } from "../../ui/Segmented";
import type { DataType } from "./view-filter";

/** Revenue or margin: what every number of the view measures. */
export function DataTypeToggle({
  value,
  onChange,
}: {
  value: DataType;
  onChange: (value: DataType) => void;
}) {
  return (
    <Segmented
      label="Measure"
      options={[
        { value: "Revenue", label: "Revenue" },
        { value: "Margin", label: "Margin" },
      ]}
      value={value}
      onChange={(v) => onChange(v as DataType)}
    />
  );
}
