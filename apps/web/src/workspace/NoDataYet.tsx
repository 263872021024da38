import { abilities } from "@varia/contracts";
import { selectHasAbility } from "@varia/machines";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState, PageFrame } from "../pages/PageFrame";
import { StartupContext } from "../shell/startup-context";

const selectCanImport = selectHasAbility(abilities.importRun);

/**
 * A screen of an organisation with no months of data yet: says so, what the screen needs, and, to a
 * user who may import, the way to the import (the Integrations page).
 */
export function NoDataYet({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  const canImport = StartupContext.useSelector(selectCanImport);
  return (
    <PageFrame title={title} lead={lead}>
      <EmptyState title="No data imported yet">
        {children}
        {canImport ? (
          <Link className="button button--primary" to="/integration/overview">
            Import data
          </Link>
        ) : null}
      </EmptyState>
    </PageFrame>
  );
}
