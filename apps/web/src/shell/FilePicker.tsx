import { useId, useRef, useState } from "react";

/**
 * A file picker restricted to .csv (docs/behaviour.md#widgets-and-panels): 'Choose File', then the chosen
 * file's name.
 */
export function FilePicker({
  onChange,
  disabled,
}: {
  onChange: (file: File | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string | null>(null);
  return (
    <div className="file-picker">
      <input
        id={id}
        ref={input}
        type="file"
        accept=".csv,text/csv"
        className="file-picker__input"
        disabled={disabled}
        onChange={(event) => {
          const file = event.target.files?.[0] ?? null;
          setName(file?.name ?? null);
          onChange(file);
        }}
      />
      <label htmlFor={id} className="button button--secondary">
        {name ?? "Choose File"}
      </label>
    </div>
  );
}
