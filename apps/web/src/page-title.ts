import { useEffect } from "react";

export const productName = "Varia";

/** Sets the document title to '{title} | Varia' (spec 2.1). */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | ${productName}`;
  }, [title]);
}
