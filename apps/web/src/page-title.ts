import { useEffect } from "react";

export const productName = "Varia";

/** Sets the document title to '{title} | Varia' (docs/behaviour.md#shell-and-start-up). */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | ${productName}`;
  }, [title]);
}
