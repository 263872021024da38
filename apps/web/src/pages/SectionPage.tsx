import { EmptyState, PageFrame } from "./PageFrame";

/** A workspace screen whose content is not built yet: its frame, title and an honest note. */
export function SectionPage({ title }: { title: string }) {
  return (
    <PageFrame title={title}>
      <EmptyState title="Not available yet">
        <p>This part of Varia is being built.</p>
      </EmptyState>
    </PageFrame>
  );
}
