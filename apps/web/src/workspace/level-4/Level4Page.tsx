import type { LayoutItem } from "../cards/CardGrid";
import { CardGrid } from "../cards/CardGrid";
import { subjectKind } from "../cards/subject";
import { useViewFilter } from "../filters/use-view-filter";
import { DrillPage } from "../navigation/DrillPage";
import { subjectLabel } from "../navigation/drill-path";
import { useSubjectNames } from "../navigation/use-subject-names";

/** Level 4's layout: the lines, the width of the page. */
export const level4Layout: LayoutItem[] = [{ card: "invoiceLines", span: 12 }];
export const level4DrawnMark = "varia:level4-cards-drawn";

/**
 * Level 4, `/variance/dashboard/invoice`: the invoice lines behind the view (its client, service,
 * salesperson, stock type and months), paged, sorted and searched on the server, with Download.
 */
export function Level4Page() {
  const { filter, setFilter } = useViewFilter();
  const names = useSubjectNames(filter);
  const kind = subjectKind(filter);
  return (
    <DrillPage
      level={4}
      title={kind ? `Invoice lines of ${subjectLabel(filter, names)}` : "Invoice lines"}
      filter={filter}
      setFilter={setFilter}
      names={names}
      subtitle="The lines of the accounting data behind these figures: search, sort and download them."
    >
      <CardGrid layout={level4Layout} filter={filter} markName={level4DrawnMark} />
    </DrillPage>
  );
}
