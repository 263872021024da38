import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from "react-aria-components";
import { Icon } from "./Icon";

export interface SelectOption {
  value: string;
  label: string;
}

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
  /** The chosen option's value; "" for none yet (the placeholder shows). */
  value: string;
  onChange: (value: string) => void;
  className?: string;
  placeholder?: string;
}) {
  return (
    <Select
      className={`select-field ${className}`.trim()}
      selectedKey={value === "" ? null : value}
      placeholder={placeholder}
      onSelectionChange={(key) => {
        if (key !== null) onChange(String(key));
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
            <ListBoxItem id={o.value} className="listbox__item" textValue={o.label}>
              {o.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
