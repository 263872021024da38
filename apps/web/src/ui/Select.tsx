import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from "react-aria-components";
import { Icon } from "./Icon";

export interface SelectOption {
  value: string;
  label: string;
}

/** The key of the option whose value is "" (a key of "" would read as no choice at all). */
const emptyKey = "select-field:empty";

/** A labelled single choice from a short list (React Aria select): keyboard and type-ahead. */
export function SelectField({
  label,
  options,
  value,
  onChange,
  className = "",
  placeholder,
}: {
  label: string;
  options: SelectOption[];
  /** The chosen option's value; "" for the option of that value, or none yet (the placeholder shows). */
  value: string;
  onChange: (value: string) => void;
  className?: string;
  placeholder?: string;
}) {
  // An option whose value is "" ('All stock types', 'Any month') is a choice like the others, shown
  // when it is the value, not the placeholder.
  const keyOf = (v: string) => (v === "" ? emptyKey : v);
  const hasEmpty = options.some((o) => o.value === "");
  return (
    <Select
      className={`select-field ${className}`.trim()}
      selectedKey={value === "" && !hasEmpty ? null : keyOf(value)}
      placeholder={placeholder}
      onSelectionChange={(key) => {
        if (key !== null) onChange(key === emptyKey ? "" : String(key));
      }}
    >
      <Label className="field__label">{label}</Label>
      <Button className="select-field__button">
        <SelectValue />
        <Icon name="chevron" size={16} rotate={90} />
      </Button>
      <Popover className="popover popover--list" offset={4} containerPadding={12}>
        <ListBox className="listbox" items={options}>
          {(o) => (
            <ListBoxItem id={keyOf(o.value)} className="listbox__item" textValue={o.label}>
              {o.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
