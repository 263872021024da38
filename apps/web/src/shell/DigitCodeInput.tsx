import { type ClipboardEvent, type KeyboardEvent, useRef } from "react";

/**
 * A segmented digit-code input (docs/behaviour.md#widgets-and-panels): groups of boxes separated by dashes,
 * one-time-code autocomplete on the first box, backspace moving back. The value has a fixed length equal to
 * the sum of the group sizes, padded with spaces.
 */
export function DigitCodeInput({
  groups,
  value,
  onChange,
  label,
  disabled,
}: {
  groups: readonly number[];
  value: string;
  onChange: (value: string) => void;
  label: string;
  disabled?: boolean;
}) {
  const length = groups.reduce((a, b) => a + b, 0);
  const padded = value.padEnd(length, " ").slice(0, length);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  const setAt = (index: number, digit: string) => {
    const chars = padded.split("");
    chars[index] = digit;
    onChange(chars.join(""));
  };

  const fill = (from: number, digits: string) => {
    const chars = padded.split("");
    let i = from;
    for (const d of digits.replace(/\D/g, "")) {
      if (i >= length) break;
      chars[i++] = d;
    }
    onChange(chars.join(""));
    boxes.current[Math.min(i, length - 1)]?.focus();
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace") {
      event.preventDefault();
      if (padded[index] !== " ") setAt(index, " ");
      else if (index > 0) {
        setAt(index - 1, " ");
        boxes.current[index - 1]?.focus();
      }
    } else if (event.key === "ArrowLeft" && index > 0) boxes.current[index - 1]?.focus();
    else if (event.key === "ArrowRight" && index < length - 1) boxes.current[index + 1]?.focus();
  };

  let offset = 0;
  return (
    <fieldset className="digit-code" disabled={disabled}>
      <legend className="field__label">{label}</legend>
      <div className="digit-code__groups">
        {groups.map((size, g) => {
          const start = offset;
          offset += size;
          return (
            <span key={start} className="digit-code__group">
              {g > 0 && (
                <span className="digit-code__dash" aria-hidden="true">
                  –
                </span>
              )}
              {Array.from({ length: size }, (_, k) => {
                const index = start + k;
                return (
                  <input
                    key={index}
                    ref={(el) => {
                      boxes.current[index] = el;
                    }}
                    className="digit-code__box"
                    inputMode="numeric"
                    autoComplete={index === 0 ? "one-time-code" : "off"}
                    aria-label={`Digit ${index + 1} of ${length}`}
                    value={padded[index]?.trim() ?? ""}
                    onChange={(e) => fill(index, e.target.value.slice(-length))}
                    onKeyDown={(e) => onKeyDown(index, e)}
                    onPaste={(e: ClipboardEvent<HTMLInputElement>) => {
                      e.preventDefault();
                      fill(index, e.clipboardData.getData("text"));
                    }}
                  />
                );
              })}
            </span>
          );
        })}
      </div>
    </fieldset>
  );
}
