import { useRef, useState } from "react";
import { useLocation } from "react-router";
import { type FieldErrorMap, type FormProblem, hasFieldErrors } from "./form-problem";
import { useFocusFirstInvalid } from "./use-focus-first-invalid";

export interface Outcome {
  error?: string;
  success?: string;
}

/**
 * The state every settings editor keeps around its form: the field errors, the outcome line (a
 * message passed in the navigation's state, as "The role … is created.", shows first), whether a
 * save runs (the form locks meanwhile), and the form element whose first invalid field takes the
 * focus after a failed save.
 */
export function useSettingsForm() {
  const location = useLocation();
  const [fieldErrors, setFieldErrors] = useState<FieldErrorMap>({});
  const [outcome, setOutcome] = useState<Outcome>({
    success: (location.state as { message?: string } | null)?.message,
  });
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = useFocusFirstInvalid(formRef);

  /**
   * Saves once the form's own checks pass: their errors, or the server's refusal read by
   * `problemOf`, land under the fields; a save that answers a message shows it as the outcome.
   */
  const submit = async (
    errors: FieldErrorMap,
    invalidMessage: string,
    save: () => Promise<string | undefined>,
    problemOf: (e: unknown) => FormProblem,
  ) => {
    setFieldErrors(errors);
    if (hasFieldErrors(errors)) {
      focusFirstInvalid();
      setOutcome({ error: invalidMessage });
      return;
    }
    setSaving(true);
    setOutcome({});
    try {
      const success = await save();
      if (success) setOutcome({ success });
    } catch (e) {
      const problem = problemOf(e);
      setFieldErrors(problem.fields);
      setOutcome({ error: problem.message });
      focusFirstInvalid();
    } finally {
      setSaving(false);
    }
  };

  return { fieldErrors, setFieldErrors, outcome, setOutcome, saving, formRef, submit };
}
