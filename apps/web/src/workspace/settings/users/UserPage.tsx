import {
  adminResetMultiFactorAuthentication,
  createUser,
  deleteUser,
  getUserDetail,
  sendPasswordLink,
  type UserDetail,
  type UserSummary,
  updateUserDetail,
  userPasswordStatus,
} from "@varia/contracts";
import { selectProfile } from "@varia/machines";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { api } from "../../../api";
import { PageFrame } from "../../../pages/PageFrame";
import { FormMessage } from "../../../shell/FormMessage";
import { StartupContext } from "../../../shell/startup-context";
import { ConfirmDialog } from "../ConfirmDialog";
import { formProblem } from "../form-problem";
import { loadRoleNames } from "../roles/load-roles";
import { SettingsCrumbs } from "../SettingsCrumbs";
import { CheckboxField, CheckboxGroup, TextField } from "../SettingsFields";
import { useFocusBack } from "../use-focus-back";
import { useSettingsForm } from "../use-settings-form";
import { userPath } from "./UserListPage";
import { userFormErrors } from "./user-form";
import "../settings.css";

const listPath = "/variance/settings/user";

const labels = { name: "Name", email: "E-mail", userIsAdmin: "Administrator", roleIDs: "Roles" };

type Form = Pick<UserSummary, "name" | "email" | "userIsAdmin" | "roleIDs" | "disabled">;
const emptyForm: Form = { name: "", email: "", userIsAdmin: false, roleIDs: [], disabled: false };

type PasswordStatus = { hasPassword: boolean; passwordLinkPending: boolean };

/** The side panels whose actions say what they came to within the panel. */
type SidePanel = "password" | "mfa";

function passwordStatusText(status: PasswordStatus): string {
  if (status.hasPassword) return "A password is set.";
  if (status.passwordLinkPending)
    return "No password yet: a link to set one is waiting to be used (valid 72 hours).";
  return "No password and no link waiting: send a link so that they can set one.";
}

/**
 * `/variance/settings/user/{userID}` (and `/new`): a user's name, e-mail, admin flag and roles;
 * their password status, a new set-password link, a reset of their multi-factor authentication, and
 * deletion (their sessions and tokens end). A new user is mailed a link to set their password. The
 * server refuses to grant more than the editor holds; its message is shown as it says it.
 */
export function UserPage() {
  const { userID = "new" } = useParams();
  const isNew = userID === "new";
  const navigate = useNavigate();
  const me = StartupContext.useSelector(selectProfile);
  const startup = StartupContext.useActorRef();
  const iAmAdmin = StartupContext.useSelector((s) => s.context.userIsAdmin);
  const isMe = !isNew && me?.userGUID === userID;
  const [detail, setDetail] = useState<UserDetail | null>(null);
  const [form, setForm] = useState<Form>(emptyForm);
  const [roles, setRoles] = useState<{ roleID: string; name: string }[] | null>(null);
  const [password, setPassword] = useState<PasswordStatus | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { fieldErrors, setFieldErrors, outcome, setOutcome, saving, formRef, submit } = useSettingsForm();
  const [acting, setActing] = useState(false);
  const holdFocus = useFocusBack(acting);
  const [confirm, setConfirm] = useState<"delete" | "mfa" | null>(null);
  // The reset takes its button away: once the dialog is closed, the focus goes to the panel's heading
  // rather than to the page.
  const mfaHeading = useRef<HTMLHeadingElement>(null);
  const [mfaReset, setMfaReset] = useState(false);
  useEffect(() => {
    if (!mfaReset || confirm !== null) return;
    mfaHeading.current?.focus();
    setMfaReset(false);
  }, [mfaReset, confirm]);

  const load = useCallback(async () => {
    const [user, status] = await Promise.all([
      api.call(getUserDetail, { query: { userID } }),
      api.call(userPasswordStatus, { query: { userID } }),
    ]);
    setDetail(user);
    setForm({
      name: user.name,
      email: user.email,
      userIsAdmin: user.userIsAdmin,
      roleIDs: user.roleIDs,
      disabled: user.disabled,
    });
    setPassword(status);
  }, [userID]);

  useEffect(() => {
    setLoadError(null);
    loadRoleNames().then(setRoles, (e) => setLoadError(formProblem(e, {}).message));
    if (isNew) {
      setDetail(null);
      setForm(emptyForm);
      return;
    }
    load().catch((e) => setLoadError(formProblem(e, {}).message));
  }, [isNew, load]);

  const change = (changes: Partial<Form>) => {
    setForm((f) => ({ ...f, ...changes }));
    setFieldErrors((errors) => {
      const next = { ...errors };
      for (const key of Object.keys(changes)) delete next[key];
      return next;
    });
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const errors = userFormErrors(form);
    const body = {
      name: form.name.trim(),
      email: form.email.trim(),
      userIsAdmin: form.userIsAdmin,
      roleIDs: form.roleIDs,
    };
    await submit(
      errors,
      `Please check ${Object.keys(errors)
        .map((f) => labels[f as keyof typeof labels])
        .join(", ")}.`,
      async () => {
        if (isNew) {
          const created = await api.call(createUser, { body });
          navigate(userPath(created.userID), {
            state: {
              message: `${body.name} is added. A link to set their password was sent to ${body.email}.`,
            },
          });
          return undefined;
        }
        await api.call(updateUserDetail, { body: { userID, ...body, disabled: form.disabled } });
        // One's own new name shows at once in the account menu, as the profile's rename does.
        if (isMe) startup.send({ type: "profile.renamed", name: body.name });
        await load();
        return "Your changes are saved.";
      },
      (e) => formProblem(e, labels),
    );
  };

  // What a side panel's action came to, said in that panel, beside its button (the form's message
  // line is far from it, and off the screen of a phone).
  const [side, setSide] = useState<{ panel: SidePanel; error?: string; success?: string } | null>(null);
  const act = async (panel: SidePanel, run: () => Promise<string>) => {
    holdFocus();
    setActing(true);
    setOutcome({});
    setSide(null);
    try {
      setSide({ panel, success: await run() });
    } catch (e) {
      setSide({ panel, error: formProblem(e, labels).message });
    } finally {
      setActing(false);
    }
  };
  const sideMessage = (panel: SidePanel) =>
    side?.panel === panel ? <FormMessage error={side.error} success={side.success} /> : null;

  const title = isNew ? "New User" : (detail?.name ?? "User");
  // A user the caller may not change (an admin, or one holding more than the caller): shown, with
  // the server's reason, and nothing offered that it would refuse.
  const refusal = detail?.changeRefusal ?? null;

  return (
    <PageFrame title={title} lead={<SettingsCrumbs list={listPath} listTitle="Users" />}>
      {loadError ? (
        <p className="form__error" role="alert">
          {loadError}
        </p>
      ) : !isNew && !detail ? (
        <div className="spinner spinner--page" role="status" aria-label="Loading the user" />
      ) : (
        <div className="settings-layout">
          <form
            ref={formRef}
            className="card settings-form"
            aria-label={isNew ? "New user" : "User details"}
            noValidate
            onSubmit={save}
          >
            {refusal ? (
              <div className="notice" role="note">
                <p>
                  You can see {detail?.name} but not change them. {refusal}
                </p>
              </div>
            ) : null}
            <fieldset className="settings-form__fields" disabled={saving || refusal !== null}>
              <TextField
                label="Name"
                value={form.name}
                onChange={(name) => change({ name })}
                errors={fieldErrors.name}
                autoComplete="off"
                required
              />
              <TextField
                label="E-mail"
                type="email"
                value={form.email}
                onChange={(email) => change({ email })}
                errors={fieldErrors.email}
                autoComplete="off"
                required
                hint={isNew ? "They receive a link here to set their password." : undefined}
              />
              <CheckboxField
                label="Administrator"
                checked={form.userIsAdmin}
                onChange={(userIsAdmin) => change({ userIsAdmin })}
                // The server refuses an admin's own flag taken away, and the flag from anyone not an admin
                // (docs/settings.md, "Users, roles and tokens").
                disabled={(isMe && detail?.userIsAdmin) || !iAmAdmin}
                description={
                  isMe && detail?.userIsAdmin
                    ? "You cannot remove your own administrator rights: another administrator can."
                    : iAmAdmin
                      ? "Holds every ability, whatever their roles. Only an administrator can make one."
                      : "Holds every ability, whatever their roles. Only an administrator can make one, so you cannot."
                }
              />
              {fieldErrors.userIsAdmin ? <FormMessage error={fieldErrors.userIsAdmin.join(" ")} /> : null}
              <CheckboxGroup legend="Roles" errors={fieldErrors.roleIDs}>
                {roles === null ? (
                  <span className="form__note">Loading the roles…</span>
                ) : roles.length === 0 ? (
                  <span className="form__note">
                    No roles exist yet: <Link to="/variance/settings/role/new">create one</Link>.
                  </span>
                ) : (
                  roles.map((role) => (
                    <CheckboxField
                      key={role.roleID}
                      label={role.name}
                      checked={form.roleIDs.includes(role.roleID)}
                      onChange={(on) =>
                        change({
                          roleIDs: on
                            ? [...form.roleIDs, role.roleID]
                            : form.roleIDs.filter((id) => id !== role.roleID),
                        })
                      }
                    />
                  ))
                )}
              </CheckboxGroup>
              {isNew ? null : (
                <CheckboxField
                  label="Disabled"
                  checked={form.disabled}
                  onChange={(disabled) => change({ disabled })}
                  disabled={isMe}
                  description={
                    isMe
                      ? "You cannot disable yourself."
                      : "A disabled user cannot sign in; saving ends their sessions."
                  }
                />
              )}
            </fieldset>
            <FormMessage error={outcome.error} success={outcome.success} />
            <div className="settings-form__actions">
              <Link to={listPath} className="button button--secondary">
                Back to users
              </Link>
              {refusal ? null : (
                <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
                  {saving ? <span className="spinner" aria-hidden="true" /> : null}
                  {saving ? "Saving…" : isNew ? "Create user" : "Save changes"}
                </button>
              )}
            </div>
          </form>
          {detail ? (
            <aside className="settings-side" aria-label="Access">
              <section className="card settings-panel" aria-labelledby="password-heading">
                <h2 id="password-heading">Password</h2>
                <p>{password ? passwordStatusText(password) : "…"}</p>
                {detail.disabled ? (
                  // The server sends a disabled user no link (docs/settings.md, "Users, roles and tokens").
                  <p>Disabled, so they cannot sign in: untick Disabled and save to send them a link.</p>
                ) : null}
                {refusal || detail.disabled ? null : (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={acting || saving}
                    onClick={() =>
                      act("password", async () => {
                        await api.call(sendPasswordLink, { query: { userID } });
                        setPassword(await api.call(userPasswordStatus, { query: { userID } }));
                        return `A link to set a password was sent to ${detail.email}.`;
                      })
                    }
                  >
                    Send password link
                  </button>
                )}
                {sideMessage("password")}
              </section>
              <section className="card settings-panel" aria-labelledby="mfa-heading">
                <h2 id="mfa-heading" ref={mfaHeading} tabIndex={-1}>
                  Multi-factor authentication
                </h2>
                <p>
                  {detail.multiFactorAuthenticationStatus === "enabled"
                    ? "Set up: they sign in with a code from their authenticator app."
                    : "Not set up."}
                </p>
                {detail.multiFactorAuthenticationStatus === "enabled" && isMe ? (
                  // The server resets one's own only from the profile, with the password and a code
                  // (docs/security.md, "Multi-factor authentication").
                  <p>Yours is reset from your profile, which asks for your password and a code.</p>
                ) : null}
                {detail.multiFactorAuthenticationStatus === "enabled" && !refusal && !isMe ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={acting || saving}
                    onClick={() => setConfirm("mfa")}
                  >
                    Reset multi-factor
                  </button>
                ) : null}
                {sideMessage("mfa")}
              </section>
              {refusal ? null : (
                <section className="card settings-panel" aria-labelledby="delete-heading">
                  <h2 id="delete-heading">Delete</h2>
                  <p>
                    {isMe
                      ? "You cannot delete yourself."
                      : "Their sessions end at once and their API tokens are revoked."}
                  </p>
                  <button
                    type="button"
                    className="button button--danger"
                    disabled={isMe || acting || saving}
                    onClick={() => setConfirm("delete")}
                  >
                    Delete user
                  </button>
                </section>
              )}
            </aside>
          ) : null}
        </div>
      )}
      {confirm === "delete" && detail ? (
        <ConfirmDialog
          title={`Delete ${detail.name}?`}
          confirmLabel="Delete user"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await api.call(deleteUser, { query: { userID } });
            navigate(listPath, { state: { message: `${detail.name} is deleted.` } });
          }}
        >
          <p>
            {detail.name} ({detail.email}) will no longer be able to sign in: their sessions end at once and
            their API tokens are revoked. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {confirm === "mfa" && detail ? (
        <ConfirmDialog
          title={`Reset multi-factor authentication of ${detail.name}?`}
          confirmLabel="Reset multi-factor"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await api.call(adminResetMultiFactorAuthentication, { body: { userID } });
            await load();
            setConfirm(null);
            setMfaReset(true);
            setSide({
              panel: "mfa",
              success: `Multi-factor authentication of ${detail.name} is reset: they set it up again at their next sign-in.`,
            });
          }}
        >
          <p>
            They set it up again at their next sign-in, and their sessions end now. Do this when they have
            lost their authenticator.
          </p>
        </ConfirmDialog>
      ) : null}
    </PageFrame>
  );
}
