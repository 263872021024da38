import { getRoleList, lookupRoleList } from "@varia/contracts";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { api } from "../../../api";
import { EmptyState, PageFrame } from "../../../pages/PageFrame";
import { FormMessage } from "../../../shell/FormMessage";
import { countColumn, DataGrid, type GridColumn, textColumn } from "../../../ui/grid/Grid";
import { Icon } from "../../../ui/Icon";
import { formProblem } from "../form-problem";
import { listHeight } from "../list-height";
import "../settings.css";

type Row = { roleID: string; name: string; description: string; userCount: number };

export const rolePath = (roleID: string) => `/variance/settings/role/${roleID}`;

/**
 * `/variance/settings/role`: the roles (Lookup/GetRoleList, startRow 1 and rowLimit 100: docs/api.md#the-calls-by-area),
 * each with its description and how many users hold it (Role/GetRoleList), and New Role.
 */
export function RoleListPage() {
  const [roles, setRoles] = useState<{ rows: Row[]; totalRows: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const done = (useLocation().state as { message?: string } | null)?.message;

  useEffect(() => {
    let current = true;
    Promise.all([
      // Asked afresh: the lookup is cached otherwise, and a role may have just been added.
      api.call(lookupRoleList, { body: { startRow: 1, rowLimit: 100 } }, { cache: false }),
      api.call(getRoleList),
    ]).then(
      ([page, details]) => {
        if (!current) return;
        const byId = new Map(details.map((d) => [d.roleID, d]));
        setRoles({
          totalRows: page.totalRows,
          rows: page.rows.map((r) => ({
            roleID: r.roleID,
            name: r.name,
            description: byId.get(r.roleID)?.roleInfo.description ?? "",
            userCount: byId.get(r.roleID)?.userCount ?? 0,
          })),
        });
      },
      (e) => current && setError(formProblem(e, {}).message),
    );
    return () => {
      current = false;
    };
  }, []);

  const columns: GridColumn<Row>[] = [
    textColumn("name", "Name", { render: (row) => <Link to={rolePath(row.roleID)}>{row.name}</Link> }),
    textColumn("description", "Description", { flex: 2 }),
    countColumn("userCount", "Users"),
  ];

  return (
    <PageFrame
      title="Roles"
      actions={
        <Link to={rolePath("new")} className="button button--primary">
          <Icon name="roles" size={16} />
          New Role
        </Link>
      }
    >
      <p className="page__subtitle">
        A role grants abilities; a user holds the abilities of all their roles (administrators hold every
        one). A change applies from the next page each of its users opens.
      </p>
      <FormMessage success={done} />
      {error ? (
        <p className="form__error" role="alert">
          {error}
        </p>
      ) : roles?.totalRows === 0 ? (
        <EmptyState title="No roles yet">
          <p>
            A user who is not an administrator sees only what their roles grant: make one with New Role, then
            give it to users on the Users screen.
          </p>
        </EmptyState>
      ) : roles ? (
        <>
          <DataGrid<Row>
            label="Role list"
            columns={columns}
            rows={roles.rows}
            getRowId={(row) => row.roleID}
            pageSize={100}
            height={listHeight(roles.rows.length)}
            stackOnPhone
            emptyText="No roles yet."
          />
          {roles.totalRows > roles.rows.length ? (
            <p className="form__note">
              The first {roles.rows.length} of {roles.totalRows} roles, by name.
            </p>
          ) : null}
        </>
      ) : (
        <div className="spinner spinner--page" role="status" aria-label="Loading roles" />
      )}
    </PageFrame>
  );
}
