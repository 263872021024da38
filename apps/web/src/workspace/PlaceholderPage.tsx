import type { ReactNode } from "react";
import { EmptyState, PageFrame } from "../pages/PageFrame";

/**
 * A route whose screen is not built yet. It says so, says what the product already offers for it
 * (the API, the CLI, level 1), and never shows made-up content.
 */
export function PlaceholderPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <PageFrame title={title}>
      <EmptyState title="This screen is not built yet">{children}</EmptyState>
    </PageFrame>
  );
}
