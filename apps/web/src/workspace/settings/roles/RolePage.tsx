import {
  type AbilityModule,
  abilities as abilityCatalogue,
  abilityKey,
  availableAbilities,
  deleteRole,
  editRole,
  getRoleDetail,
  getUserList,
  type RoleAbility,
  type RoleDetail,
  type UserSummary,
} from "@varia/contracts";
import { selectHasAbility } from "@varia/machines";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { api } from "../../../api";
import { PageFrame } from "../../../pages/PageFrame";
import { FormMessage } from "../../../shell/FormMessage";
import { StartupContext } from "../../../shell/startup-context";
import { ConfirmDialog } from "../ConfirmDialog";
import { formProblem } from "../form-problem";
import { SettingsCrumbs } from "../SettingsCrumbs";
import { CheckboxField, CheckboxGroup, TextField } from "../SettingsFields";
import { useSettingsForm } from "../use-settings-form";
import { rolePath } from "./RoleListPage";
import { roleDeleteConsequence, roleFormErrors } from "./role-form";
import "../settings.css";

const listPath = "/variance/settings/role";
const labels = { name: "Name", description: "Description", activeToggles: "Abilities", roleUserIDs: "Users" };
const aliases = { "roleInfo.name": "name", "roleInfo.description": "description" };
const selectCanManageUsers = selectHasAbility(abilityCatalogue.settingsUsersManage);

interface Form {
  name: string;
  description: string;
  toggles: string[];
  userIDs: string[];
}
const emptyForm: Form = { name: "", description: "", toggles: [], userIDs: [] };

/**
 * `/variance/settings/role/{roleID}` (and `/new`): a role's name and description, its abilities as
 * toggles grouped by module and feature (Role/AvailableAbilities), the users who hold it, and
 * deletion. Abilities the editor does not hold cannot be toggled (the server refuses them too); a
 * change applies from the next page each of the role's users opens.
 */
export function RolePage() {
  const { roleID = "new" } = useParams();
  const isNew = roleID === "new";
  const navigate = useNavigate();
  const canListUsers = StartupContext.useSelector(selectCanManageUsers);
  // What the editor holds (admins: everything): the server refuses to grant anything else.
  const held = StartupContext.useSelector((s) =>
    s.context.userIsAdmin ? "*" : s.context.abilities.map(abilityKey).join("|"),
  );
  const holds = (a: RoleAbility) => held === "*" || held.split("|").includes(abilityKey(a));
  const [detail, setDetail] = useState<RoleDetail | null>(null);
  const [catalogue, setCatalogue] = useState<AbilityModule[] | null>(null);
  const [users, setUsers] = useState<UserSummary[] | null>(null);
  const [form, setForm] = useState<Form>(emptyForm);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { fieldErrors, setFieldErrors, outcome, saving, formRef, submit } = useSettingsForm();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const load = useCallback(async () => {
    const role = await api.call(getRoleDetail, { query: { roleID } });
    setDetail(role);
    setForm({
      name: role.roleInfo.name,
      description: role.roleInfo.description,
      toggles: role.activeToggles.map(abilityKey),
      userIDs: role.roleUserIDs,
    });
  }, [roleID]);

  useEffect(() => {
    setLoadError(null);
    const fail = (e: unknown) => setLoadError(formProblem(e, {}).message);
    api.call(availableAbilities).then(setCatalogue, fail);
    if (canListUsers) api.call(getUserList).then(setUsers, fail);
    if (isNew) {
      setDetail(null);
      setForm(emptyForm);
      return;
    }
    load().catch(fail);
  }, [isNew, load, canListUsers]);

  const change = (changes: Partial<Form>, field: string) => {
    setForm((f) => ({ ...f, ...changes }));
    setFieldErrors(({ [field]: _, ...rest }) => rest);
  };
  const toggle = (list: string[], key: string, on: boolean) =>
    on ? [...list, key] : list.filter((k) => k !== key);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || !catalogue) return;
    const all = catalogue.flatMap((m) => m.features.flatMap((f) => f.abilities));
    const body = {
      roleID: isNew ? null : roleID,
      roleInfo: { name: form.name.trim(), description: form.description.trim() },
      roleUserIDs: form.userIDs,
      activeToggles: all.filter((a) => form.toggles.includes(abilityKey(a))),
    };
    await submit(
      roleFormErrors(form),
      "Please check Name.",
      async () => {
        const saved = await api.call(editRole, { body });
        if (isNew) {
          navigate(rolePath(saved.roleID), {
            state: { message: `The role ${body.roleInfo.name} is created.` },
          });
          return undefined;
        }
        await load();
        return "Your changes are saved. They apply from the next page each of its users opens.";
      },
      (e) => formProblem(e, labels, aliases),
    );
  };

  const title = isNew ? "New Role" : (detail?.roleInfo.name ?? "Role");
  const ready = catalogue && (isNew || detail);
  // A role granting an ability the editor lacks is theirs to see, not to change or delete: the server
  // refuses both (docs/settings.md, "Users, roles and tokens"), so neither is offered.
  const beyond = detail ? detail.activeToggles.filter((a) => !holds(a)) : [];

  return (
    <PageFrame title={title} lead={<SettingsCrumbs list={listPath} listTitle="Roles" />}>
      {loadError ? (
        <p className="form__error" role="alert">
          {loadError}
        </p>
      ) : !ready ? (
        <div className="spinner spinner--page" role="status" aria-label="Loading the role" />
      ) : (
        <form
          ref={formRef}
          className="card settings-form settings-form--wide"
          aria-label={isNew ? "New role" : "Role"}
          noValidate
          onSubmit={save}
        >
          {beyond.length ? (
            <div className="notice" role="note">
              <p>
                You can see this role but not change or delete it: it grants{" "}
                {beyond.length === 1 ? "an ability" : "abilities"} you do not hold (
                {beyond.map(abilityKey).join(", ")}).
              </p>
            </div>
          ) : null}
          <fieldset className="settings-form__fields" disabled={saving || beyond.length > 0}>
            <div className="settings-form__pair">
              <TextField
                label="Name"
                value={form.name}
                onChange={(name) => change({ name }, "name")}
                errors={fieldErrors.name}
                autoComplete="off"
                required
              />
              <TextField
                label="Description"
                value={form.description}
                onChange={(description) => change({ description }, "description")}
                errors={fieldErrors.description}
                autoComplete="off"
              />
            </div>
            <CheckboxGroup legend="Abilities" errors={fieldErrors.activeToggles} className="role-abilities">
              {catalogue.map((module) => (
                <fieldset key={module.moduleSystemName} className="role-abilities__module">
                  <legend>{module.moduleSystemName}</legend>
                  {module.features.map((feature) => (
                    <fieldset key={feature.featureSystemName} className="role-abilities__feature">
                      <legend className="role-abilities__feature-name">{feature.featureSystemName}</legend>
                      {feature.abilities.map((ability) => {
                        const key = abilityKey(ability);
                        const mine = holds(ability);
                        return (
                          <CheckboxField
                            key={key}
                            label={
                              <>
                                <span className="visually-hidden">{feature.featureSystemName} </span>
                                {ability.abilitySystemName}
                              </>
                            }
                            checked={form.toggles.includes(key)}
                            disabled={!mine}
                            description={
                              mine ? undefined : "You do not hold this ability, so you cannot grant it."
                            }
                            onChange={(on) =>
                              change({ toggles: toggle(form.toggles, key, on) }, "activeToggles")
                            }
                          />
                        );
                      })}
                    </fieldset>
                  ))}
                </fieldset>
              ))}
            </CheckboxGroup>
            <CheckboxGroup legend="Users in this role" errors={fieldErrors.roleUserIDs}>
              {users === null ? (
                <span className="form__note">
                  {form.userIDs.length === 1 ? "1 user holds" : `${form.userIDs.length} users hold`} this
                  role.
                </span>
              ) : users.length === 0 ? (
                <span className="form__note">No users yet.</span>
              ) : (
                <div className="role-users">
                  {users.map((user) => (
                    <CheckboxField
                      key={user.userID}
                      label={
                        <>
                          {user.name} <span className="form__note">{user.email}</span>
                        </>
                      }
                      checked={form.userIDs.includes(user.userID)}
                      onChange={(on) =>
                        change({ userIDs: toggle(form.userIDs, user.userID, on) }, "roleUserIDs")
                      }
                    />
                  ))}
                </div>
              )}
            </CheckboxGroup>
          </fieldset>
          <FormMessage error={outcome.error} success={outcome.success} />
          <div className="settings-form__actions">
            {detail && !beyond.length ? (
              <button
                type="button"
                className="button button--danger settings-form__delete"
                disabled={saving}
                onClick={() => setConfirmDelete(true)}
              >
                Delete role
              </button>
            ) : null}
            <Link to={listPath} className="button button--secondary">
              Back to roles
            </Link>
            {beyond.length ? null : (
              <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
                {saving ? <span className="spinner" aria-hidden="true" /> : null}
                {saving ? "Saving…" : isNew ? "Create role" : "Save changes"}
              </button>
            )}
          </div>
        </form>
      )}
      {confirmDelete && detail ? (
        <ConfirmDialog
          title={`Delete the role ${detail.roleInfo.name}?`}
          confirmLabel="Delete role"
          onClose={() => setConfirmDelete(false)}
          onConfirm={async () => {
            await api.call(deleteRole, { query: { roleID } });
            navigate(listPath, { state: { message: `The role ${detail.roleInfo.name} is deleted.` } });
          }}
        >
          <p>{roleDeleteConsequence(detail.roleUserIDs.length)} This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </PageFrame>
  );
}
