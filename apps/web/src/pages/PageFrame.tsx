import { type ReactNode, useRef } from "react";
import { usePageTitle } from "../page-title";
import { usePageHeadingFocus } from "./page-heading-focus";

/** A page of the workspace: its title (also the document title) and content. */
export function PageFrame({
  title,
  actions,
  lead,
  children,
}: {
  title: string;
  actions?: ReactNode;
  /** Above the title (the breadcrumbs of a drill-down). */
  lead?: ReactNode;
  children: ReactNode;
}) {
  usePageTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  usePageHeadingFocus(heading);
  return (
    <section className="page" aria-labelledby="page-heading">
      {lead}
      <div className="page__header">
        <h1 id="page-heading" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The honest state of a screen whose data or feature is not there yet. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
