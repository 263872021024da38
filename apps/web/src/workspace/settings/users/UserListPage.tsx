import { getUserList, type UserSummary } from "@varia/contracts";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { api } from "../../../api";
import { PageFrame } from "../../../pages/PageFrame";
import { FormMessage } from "../../../shell/FormMessage";
import { DataGrid, type GridColumn, textColumn } from "../../../ui/grid/Grid";
import { Icon } from "../../../ui/Icon";
import { formProblem } from "../form-problem";
import { listHeight } from "../list-height";
import { loadRoleNames } from "../roles/load-roles";
import "../settings.css";

type Row = UserSummary & { roleNames: string };

export const userPath = (userID: string) => `/variance/settings/user/${userID}`;

/** `/variance/settings/user`: the organisation's users (AG Grid) and New User. */
export function UserListPage() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // What the page before did (a user deleted), said once here.
  const done = (useLocation().state as { message?: string } | null)?.message;

  useEffect(() => {
    let current = true;
    Promise.all([api.call(getUserList), loadRoleNames()]).then(
      ([users, roles]) => {
        if (!current) return;
        const names = new Map(roles.map((r) => [r.roleID, r.name]));
        setRows(
          users.map((u) => ({
            ...u,
            roleNames: u.roleIDs
              .map((id) => names.get(id) ?? "")
              .filter(Boolean)
              .sort()
              .join(", "),
          })),
        );
      },
      (e) => current && setError(formProblem(e, {}).message),
    );
    return () => {
      current = false;
    };
  }, []);

  const columns: GridColumn<Row>[] = [
    textColumn("name", "Name", { render: (row) => <Link to={userPath(row.userID)}>{row.name}</Link> }),
    textColumn("email", "E-mail", { minWidth: 220 }),
    textColumn("roleNames", "Roles", { flex: 1.4 }),
    textColumn("userIsAdmin", "Admin", {
      value: (row) => (row.userIsAdmin ? "Yes" : ""),
      flex: 0,
      width: 100,
      minWidth: 100,
    }),
    textColumn("multiFactorAuthenticationStatus", "Multi-factor", {
      value: (row) => (row.multiFactorAuthenticationStatus === "enabled" ? "On" : "Off"),
      flex: 0,
      width: 130,
      minWidth: 130,
    }),
    textColumn("disabled", "Status", {
      value: (row) => (row.disabled ? "Disabled" : "Active"),
      flex: 0,
      width: 110,
      minWidth: 110,
    }),
  ];

  return (
    <PageFrame
      title="Users"
      actions={
        <Link to={userPath("new")} className="button button--primary">
          <Icon name="user" size={16} />
          New User
        </Link>
      }
    >
      <p className="page__subtitle">
        Who signs in to your organisation. A new user receives an e-mail with a link to set their password;
        open a user to change their roles, send a new link or reset their multi-factor authentication.
      </p>
      <FormMessage success={done} />
      {error ? (
        <p className="form__error" role="alert">
          {error}
        </p>
      ) : rows ? (
        <DataGrid<Row>
          label="User list"
          columns={columns}
          rows={rows}
          getRowId={(row) => row.userID}
          pageSize={50}
          height={listHeight(rows.length)}
          stackOnPhone
          emptyText="No users yet."
        />
      ) : (
        <div className="spinner spinner--page" role="status" aria-label="Loading users" />
      )}
    </PageFrame>
  );
}
