import { createContext, type ReactNode, useContext, useMemo } from "react";
import { createFormat, type Format } from "./format";

const FormatContext = createContext<Format>(createFormat());

/** Gives every screen below it the organisation's formatter (currency and forced locale). */
export function FormatProvider({
  currency,
  forcedLocale,
  children,
}: {
  currency: string | null | undefined;
  forcedLocale?: string | null;
  children: ReactNode;
}) {
  const format = useMemo(() => createFormat({ currency, forcedLocale }), [currency, forcedLocale]);
  return <FormatContext.Provider value={format}>{children}</FormatContext.Provider>;
}

/** The organisation's formatter. */
export function useFormat(): Format {
  return useContext(FormatContext);
}
