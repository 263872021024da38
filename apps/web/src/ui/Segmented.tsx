import { ToggleButton, ToggleButtonGroup } from "react-aria-components";

/**
 * A choice of one among a few, shown side by side (the revenue/margin toggle, a card's toggle):
 * React Aria's toggle button group, one always chosen. It is a group of radio buttons to assistive
 * technology, so the choice follows the focus as a radio group's does: the arrows choose the next
 * option, not only move to it (Tab lands on the chosen one; docs/behaviour.md, "Keyboard").
 */
const arrowKeys = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

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
        <ToggleButton
          key={o.value}
          id={o.value}
          className="segmented__option"
          // The arrow's key comes up on the option it moved to. (Not on focus: React Aria moves the
          // focus through the group's last option when Tab leaves it.)
          onKeyUp={(event) => {
            if (arrowKeys.has(event.key) && o.value !== value) onChange(o.value);
          }}
        >
          {o.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
