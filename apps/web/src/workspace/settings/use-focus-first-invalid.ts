import { type RefObject, useCallback, useEffect, useState } from "react";

/**
 * After a save that named fields, the keyboard's focus goes to the first field marked invalid (its
 * errors describe it, so a screen reader reads them there). Returns the function a failed save
 * calls; typing afterwards does not move the focus.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>): () => void {
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures === 0) return;
    form.current
      ?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[aria-describedby] input:not(:disabled)')
      ?.focus();
  }, [form, failures]);
  return useCallback(() => setFailures((n) => n + 1), []);
}
