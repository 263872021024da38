import {
  type ApiToken,
  abilities as abilityCatalogue,
  abilityKey,
  createApiToken,
  listApiTokens,
  type RoleAbility,
  revokeApiToken,
} from "@varia/contracts";
import { selectProfile } from "@varia/machines";
import { type FormEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { api } from "../../../api";
import { FormMessage } from "../../../shell/FormMessage";
import { StartupContext } from "../../../shell/startup-context";
import { AppDialog } from "../../../ui/Dialog";

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : "Never");
const abilityLabel = (a: RoleAbility) => `${a.featureSystemName}: ${a.abilitySystemName}`;

/**
 * A token's abilities as its calls count them: those its user no longer holds (a role taken away, an
 * admin made a plain user) are named apart, and a disabled user's token is said to be refused
 * (docs/settings.md, "Users, roles and tokens").
 */
function TokenAbilities({ token, own }: { token: ApiToken; own: boolean }) {
  const inForce = new Set(token.abilitiesInForce.map(abilityKey));
  const lapsed = token.userDisabled ? [] : token.abilities.filter((a) => !inForce.has(abilityKey(a)));
  const held = token.abilities.filter((a) => !lapsed.includes(a));
  return (
    <>
      {held.map(abilityLabel).join(", ") || (lapsed.length ? null : "None")}
      {token.userDisabled ? (
        <span className="tokens__lapsed">
          Refused: {own ? "your account is" : `${token.userName} is`} disabled.
        </span>
      ) : null}
      {lapsed.length ? (
        <span className="tokens__lapsed">
          Not in force, as {own ? "you" : token.userName} no longer {own ? "hold" : "holds"}{" "}
          {lapsed.length === 1 ? "it" : "them"}: {lapsed.map(abilityLabel).join(", ")}
        </span>
      ) : null}
    </>
  );
}

function messageOf(error: unknown, fallback: string) {
  const e = error as { serverMessage?: string; result?: { errors?: { message: string }[] } };
  return e.result?.errors?.[0]?.message ?? e.serverMessage ?? fallback;
}

/** The abilities a new token may hold: those of its creator (an admin holds the whole catalogue). */
function useGrantableAbilities(): RoleAbility[] {
  const userIsAdmin = StartupContext.useSelector((s) => s.context.userIsAdmin);
  const held = StartupContext.useSelector((s) => s.context.abilities);
  return useMemo(() => (userIsAdmin ? Object.values(abilityCatalogue) : held), [userIsAdmin, held]);
}

/** Name and abilities of a new token; its value is shown once, with a copy button. */
function CreateTokenForm({ onCreated, Heading }: { onCreated: () => void; Heading: "h2" | "h3" }) {
  const grantable = useGrantableAbilities();
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const headingId = useId();
  const errorId = useId();
  const [nameMissing, setNameMissing] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Create token is disabled while it runs, which drops the keyboard's focus to the page: the new
  // token's value takes it (and is selected for copying), so that it is the next thing read.
  const createdValue = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (created) createdValue.current?.focus();
  }, [created]);
  const modules = useMemo(() => {
    const byModule = new Map<string, RoleAbility[]>();
    for (const a of grantable)
      byModule.set(a.moduleSystemName, [...(byModule.get(a.moduleSystemName) ?? []), a]);
    return [...byModule];
  }, [grantable]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      // The field to fix is marked and takes the focus; the message describes it.
      setNameMissing(true);
      nameInput.current?.focus();
      return setError("Please enter a name for the token.");
    }
    if (chosen.size === 0) {
      // The keyboard is taken to the first ability, where the choice is made.
      formRef.current?.querySelector<HTMLInputElement>(".token-form__abilities input")?.focus();
      return setError("Choose at least one ability for the token.");
    }
    setBusy(true);
    setError(null);
    setCopied(false);
    try {
      const answer = await api.call(createApiToken, {
        body: { name: name.trim(), abilities: grantable.filter((a) => chosen.has(abilityKey(a))) },
      });
      setCreated({ name: answer.name, token: answer.token });
      setName("");
      setChosen(new Set());
      onCreated();
    } catch (failure) {
      setError(messageOf(failure, "The token could not be created, please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} className="form token-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <Heading id={headingId}>Create a token</Heading>
      {created ? (
        <div className="notice token-created" role="status">
          <p className="notice__title">Token '{created.name}' is created</p>
          <p>
            Copy it now: it is shown only once. Programs send it as <code>Authorization: Bearer …</code>.
          </p>
          <div className="token-created__value">
            <label className="field">
              <span className="field__label">New token</span>
              <input ref={createdValue} readOnly value={created.token} onFocus={(e) => e.target.select()} />
            </label>
            <button
              type="button"
              className="button button--secondary"
              onClick={async (event) => {
                try {
                  await navigator.clipboard.writeText(created.token);
                  setCopied(true);
                } catch {
                  // No clipboard (a page not served securely): the value is selected for copying by hand.
                  event.currentTarget.parentElement?.querySelector("input")?.select();
                }
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
        </div>
      ) : null}
      <label className="field">
        <span className="field__label">Token name</span>
        <input
          ref={nameInput}
          value={name}
          maxLength={100}
          aria-invalid={nameMissing || undefined}
          aria-describedby={nameMissing ? errorId : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (nameMissing) {
              setNameMissing(false);
              setError(null);
            }
          }}
        />
      </label>
      {modules.map(([module, list]) => (
        <fieldset key={module} className="token-form__abilities">
          <legend>{module} abilities</legend>
          {list.map((a) => {
            const key = abilityKey(a);
            return (
              <label key={key} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(key)}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.target.checked) next.add(key);
                    else next.delete(key);
                    setChosen(next);
                  }}
                />
                <span>{abilityLabel(a)}</span>
              </label>
            );
          })}
        </fieldset>
      ))}
      <div id={errorId}>
        <FormMessage error={error} />
      </div>
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        Create token
      </button>
    </form>
  );
}

/**
 * API tokens: the list (the caller's own with `scope="own"`; every one the server answers, which for
 * an admin is the organisation's, with `scope="organisation"`), a new token with chosen abilities,
 * and revoking with a confirmation. The rules are in docs/settings.md ("Users, roles and tokens").
 */
export function TokenManager({ scope }: { scope: "own" | "organisation" }) {
  const profile = StartupContext.useSelector(selectProfile);
  // The server answers an admin every token of the organisation, anyone else their own.
  const seesAll = StartupContext.useSelector((s) => scope === "organisation" && s.context.userIsAdmin);
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const headingId = useId();
  // In the profile dialog the sections sit under the dialog's title.
  const Heading = scope === "own" ? "h3" : "h2";

  const load = useCallback(async () => {
    try {
      const all = await api.call(listApiTokens);
      setTokens(scope === "own" ? all.filter((t) => t.userID === profile?.userGUID) : all);
      setError(null);
    } catch (failure) {
      setError(messageOf(failure, "The tokens could not be loaded, please try again."));
    }
  }, [scope, profile?.userGUID]);
  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (token: ApiToken) => {
    if (revokeBusy) return;
    setRevokeError(null);
    setRevokeBusy(true);
    try {
      await api.call(revokeApiToken, { query: { tokenID: token.tokenID } });
      await load();
      setRevoking(null);
      setNotice(`Token '${token.name}' is revoked.`);
      setRevoked(true);
    } catch (failure) {
      setRevokeError(messageOf(failure, "The token could not be revoked, please try again."));
    } finally {
      setRevokeBusy(false);
    }
  };
  // The revoked token's row and its Revoke button are gone: once the dialog is closed, the focus goes
  // to the list's heading rather than to the page.
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [revoked, setRevoked] = useState(false);
  useEffect(() => {
    if (!revoked || revoking !== null) return;
    listHeading.current?.focus();
    setRevoked(false);
  }, [revoked, revoking]);

  return (
    <div className={`tokens tokens--${scope}`}>
      <section aria-labelledby={headingId}>
        <Heading id={headingId} ref={listHeading} tabIndex={-1}>
          {seesAll ? "The organisation's API tokens" : "Your API tokens"}
        </Heading>
        <FormMessage error={error} success={notice} />
        {tokens === null ? (
          error ? null : (
            <div className="spinner spinner--dark" role="status" aria-label="Loading tokens" />
          )
        ) : tokens.length === 0 ? (
          <p className="form__note">No API tokens yet.</p>
        ) : (
          <div className="tokens__table">
            <table className="table table--stack">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {scope === "organisation" ? (
                    <>
                      <th scope="col">Starts with</th>
                      <th scope="col">User</th>
                    </>
                  ) : null}
                  <th scope="col">Abilities</th>
                  {scope === "organisation" ? <th scope="col">Created</th> : null}
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.tokenID}>
                    <th scope="row">{t.name}</th>
                    {scope === "organisation" ? (
                      <>
                        <td data-label="Starts with">
                          <code>{t.tokenPrefix}…</code>
                        </td>
                        <td data-label="User">{t.userName}</td>
                      </>
                    ) : null}
                    <td data-label="Abilities">
                      <TokenAbilities token={t} own={t.userID === profile?.userGUID} />
                    </td>
                    {scope === "organisation" ? <td data-label="Created">{when(t.createdAt)}</td> : null}
                    <td data-label="Last used">{when(t.lastUsedAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="button button--secondary button--small"
                        aria-label={`Revoke ${t.name}`}
                        onClick={() => {
                          setNotice(null);
                          setRevokeError(null);
                          setRevoking(t);
                        }}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <CreateTokenForm
        Heading={Heading}
        onCreated={() => {
          setNotice(null);
          void load();
        }}
      />
      {revoking ? (
        <AppDialog
          title={`Revoke '${revoking.name}'?`}
          role="alertdialog"
          size="small"
          onClose={() => setRevoking(null)}
          dismissable={!revokeBusy}
        >
          <p>Every program that uses this token is refused from now on. This cannot be undone.</p>
          <FormMessage error={revokeError} />
          <div className="dialog__actions">
            <button
              type="button"
              className="button button--secondary"
              disabled={revokeBusy}
              onClick={() => setRevoking(null)}
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={revokeBusy}
              aria-busy={revokeBusy}
              onClick={() => revoke(revoking)}
            >
              {revokeBusy ? <span className="spinner" aria-hidden="true" /> : null}
              Revoke token
            </button>
          </div>
        </AppDialog>
      ) : null}
    </div>
  );
}
