import { useId } from "react";
import { Icon } from "./Icon";

/**
 * A small choice among a few options in a card's toolbar: the browser's own select (keyboard,
 * type-ahead and screen readers as the platform does them), with its label for assistive technology
 * only. Cheap to render, which matters for a page of cards.
 */
export function CompactSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <span className="compact-select">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Icon name="chevron" size={12} rotate={90} className="compact-select__icon" />
    </span>
  );
}
