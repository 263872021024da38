import { Link } from "react-router";
import { Icon } from "../../ui/Icon";
import type { Crumb } from "./drill-path";

/** The drill-down path as links; the last crumb is the page shown. */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumbs">
      <ol>
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={crumb.level}>
              {last ? (
                <Link to={crumb.href} aria-current="page" className="breadcrumbs__current">
                  {crumb.label}
                </Link>
              ) : (
                <>
                  <Link to={crumb.href}>{crumb.label}</Link>
                  <Icon name="chevron" size={12} className="breadcrumbs__separator" />
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
