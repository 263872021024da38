import { ToggleButton, ToggleButtonGroup } from "react-aria-components";

/**
 * A choice of one among a few, shown side by side (the revenue/margin toggle, a card's toggle):
 * React Aria's toggle button group, one always chosen.
 */
export function Segmented({
  label,
  options,
  value,
  onChange,
  size = "medium",
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  size?: "small" | "medium";
}) {
  return (
    <ToggleButtonGroup
      aria-label={label}
      className={`segmented segmented--${size}`}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const [key] = [...keys];
        if (key !== undefined && key !== value) onChange(String(key));
      }}
    >
      {options.map((o) => (
        <ToggleButton key={o.value} id={o.value} className="segmented__option">
          {o.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
