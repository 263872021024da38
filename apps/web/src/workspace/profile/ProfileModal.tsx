import {
  abilities,
  resetMultiFactorAuthentication,
  resetPasswordInApp,
  updateUserProfile,
} from "@varia/contracts";
import { selectHasAbility, selectProfile } from "@varia/machines";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { api } from "../../api";
import { StartupContext } from "../../shell/startup-context";
import { AppDialog } from "../../ui/Dialog";
import { TokenManager } from "../settings/tokens/TokenManager";

const selectCanManageTokens = selectHasAbility(abilities.settingsTokensManage);

type Outcome = { ok: boolean; message: string } | null;

function messageOf(error: unknown, fallback: string) {
  const e = error as { serverMessage?: string; result?: { errors?: { message: string }[] } };
  return e.result?.errors?.[0]?.message ?? e.serverMessage ?? fallback;
}

/** One form of the profile: its fields, a submit button, and what came of it. */
function ProfileForm({
  title,
  submit,
  action,
  children,
}: {
  title: string;
  submit: string;
  action: (fields: (name: string) => string) => Promise<string>;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const headingId = useId();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const fields = (name: string) => String(data.get(name) ?? "").trim();
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, message: await action(fields) });
      form.reset();
    } catch (error) {
      setOutcome({ ok: false, message: messageOf(error, "That did not work, please try again.") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form profile-form" aria-labelledby={headingId} onSubmit={onSubmit}>
      <h3 id={headingId}>{title}</h3>
      {children}
      {outcome ? (
        <p className={outcome.ok ? "form__success" : "form__error"} role={outcome.ok ? "status" : "alert"}>
          {outcome.message}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {submit}
      </button>
    </form>
  );
}

function Field({
  label,
  name,
  type = "text",
  autoComplete,
  defaultValue,
  required = true,
}: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  defaultValue?: string;
  required?: boolean;
}) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        required={required}
      />
    </label>
  );
}

/**
 * The user's profile: their name, a new password (the current one, and a code when multi-factor is
 * on), turning multi-factor off to set it up again at the next sign-in, and the user's own API
 * tokens (for those who may manage tokens).
 */
export function ProfileModal({ onClose }: { onClose: () => void }) {
  const profile = StartupContext.useSelector(selectProfile);
  const startup = StartupContext.useActorRef();
  const mfaOn = profile?.multiFactorAuthenticationStatus === "enabled";
  const canManageTokens = StartupContext.useSelector(selectCanManageTokens);
  return (
    <AppDialog title="Profile" onClose={onClose} size="medium">
      <p className="profile__who">
        {profile?.email} · {profile?.organisationName}
      </p>
      <ProfileForm
        title="Name"
        submit="Save name"
        action={async (field) => {
          const name = field("name");
          await api.call(updateUserProfile, { body: { name } });
          startup.send({ type: "profile.renamed", name });
          return "Your name is saved.";
        }}
      >
        <Field label="Name" name="name" autoComplete="name" defaultValue={profile?.name} />
      </ProfileForm>
      <ProfileForm
        title="Change password"
        submit="Change password"
        action={async (field) => {
          await api.call(resetPasswordInApp, {
            body: {
              oldPassword: field("oldPassword"),
              newPassword: field("newPassword"),
              ...(mfaOn ? { totpCode: field("totpCode") } : {}),
            },
          });
          return "Your password is changed; your other sessions have ended.";
        }}
      >
        <Field label="Current password" name="oldPassword" type="password" autoComplete="current-password" />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" />
        {mfaOn ? <Field label="Authenticator code" name="totpCode" autoComplete="one-time-code" /> : null}
      </ProfileForm>
      {mfaOn ? (
        <ProfileForm
          title="Multi-factor authentication"
          submit="Reset multi-factor"
          action={async (field) => {
            await api.call(resetMultiFactorAuthentication, {
              body: { password: field("password"), totpCode: field("totpCode") },
            });
            return "Multi-factor authentication is reset: you will set it up again at your next sign-in.";
          }}
        >
          <Field label="Password" name="password" type="password" autoComplete="current-password" />
          <Field label="Authenticator code" name="totpCode" autoComplete="one-time-code" />
        </ProfileForm>
      ) : (
        <p className="form__note">Multi-factor authentication is not set up for your account.</p>
      )}
      {canManageTokens ? <TokenManager scope="own" /> : null}
    </AppDialog>
  );
}
