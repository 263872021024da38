import { type ExclusionListSummary, getExclusionList } from "@varia/contracts";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { api } from "../../../api";
import { EmptyState, PageFrame } from "../../../pages/PageFrame";
import { FormMessage } from "../../../shell/FormMessage";
import { useFormat } from "../../../ui/format";
import { Icon } from "../../../ui/Icon";
import { dateTime } from "../date-time";
import "../data-settings.css";

export const listsPath = "/variance/settings/list";
/** A new list is edited at `…/list/new` until its first save gives it an id. */
export const newListId = "new";

/**
 * `/variance/settings/list`: the organisation's exclusion lists (Exclusion/GetExclusionList), each
 * with whether it is active and how many clients and items it leaves out; New List.
 */
export function ExclusionListsPage() {
  const format = useFormat();
  const [lists, setLists] = useState<ExclusionListSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // What the page before did (a list deleted), said once here.
  const done = (useLocation().state as { message?: string } | null)?.message;

  useEffect(() => {
    let current = true;
    api.call(getExclusionList).then(
      (answer) => current && setLists(answer),
      () => current && setError("The exclusion lists could not be loaded. Please try again."),
    );
    return () => {
      current = false;
    };
  }, []);

  return (
    <PageFrame
      title="Exclusion Lists"
      actions={
        <Link className="button button--primary" to={`${listsPath}/${newListId}`}>
          <Icon name="lists" size={16} />
          New List
        </Link>
      }
    >
      <p className="page__subtitle">
        Clients and items on an active list are left out of every number: dashboards, reports, exports of
        analytics and the CLI's variance.
      </p>
      <FormMessage error={error} success={done} />
      {lists === null && !error ? (
        <div className="spinner spinner--page" role="status" aria-label="Loading" />
      ) : null}
      {lists?.length === 0 ? (
        <EmptyState title="No exclusion lists yet">
          <p>Make one with New List to leave clients or items out of the analysis.</p>
        </EmptyState>
      ) : null}
      {lists?.length ? (
        <div className="panel">
          <table className="data-table table--stack" aria-label="Exclusion lists">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col" className="number">
                  Clients
                </th>
                <th scope="col" className="number">
                  Items
                </th>
                <th scope="col">Last changed</th>
              </tr>
            </thead>
            <tbody>
              {lists.map((list) => (
                <tr key={list.exclusionHeaderID}>
                  <th scope="row">
                    <Link to={`${listsPath}/${list.exclusionHeaderID}`}>{list.name}</Link>
                  </th>
                  <td data-label="Status">
                    <span className={`badge ${list.active ? "badge--lost" : ""}`.trim()}>
                      {list.active ? "Active: left out" : "Inactive: counted"}
                    </span>
                  </td>
                  <td className="number" data-label="Clients">
                    {format.count(list.clientCount)}
                  </td>
                  <td className="number" data-label="Items">
                    {format.count(list.itemCount)}
                  </td>
                  <td data-label="Last changed">{dateTime(list.updatedAt, format)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </PageFrame>
  );
}
