import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type AccountingPackage, accountingPackageNames, type Connection } from "@varia/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { ResponseBodyError } from "openid-client";
import { tenantSiteUrl } from "../auth/sign-in";
import { type ProviderGrant, refreshGrant, type SsoClients } from "../auth/sso";
import type { TokenCipher } from "../auth/token-cipher";
import type { ServerConfig, SsoProviderName } from "../config";
import type { Schema } from "../db/schema";
import { FinalImportFailure, queueJob } from "../imports/import-jobs";
import type { ConnectorJobRow, ImportQueue, ScheduledImportData } from "../imports/import-queue";
import type { Mailer } from "../mail/mailer";
import { type ConnectorAccess, ConnectorError } from "./connector";
import type { ConnectorRegistry } from "./index";
import "../db/integration-schema";

/*
 * Connections to accounting packages (docs/integration.md, "Connections and tokens"): the provider
 * grant of a sign-up through Intuit or Xero is kept, encrypted, as the organisation's connection;
 * its access token is refreshed before a connector call when it has expired.
 */

/** The sign-in provider of each accounting package. */
export const providerOfPackage: Record<AccountingPackage, SsoProviderName> = {
  Quickbooks: "Intuit",
  Xero: "Xero",
};

export function packageOfProvider(provider: string): AccountingPackage | null {
  if (provider === "Intuit") return "Quickbooks";
  if (provider === "Xero") return "Xero";
  return null;
}

/** How the job names an import from a data source: "QuickBooks: Craig's Design". */

/** An access token this close to its expiry is refreshed first. */
const refreshMarginMs = 60_000;

export interface IntegrationsOptions {
  db: Kysely<Schema>;
  config: Pick<
    ServerConfig,
    "accountingApiUrls" | "accountingRevocationUrls" | "dataDir" | "publicUrl" | "ssoProviders"
  >;
  connectors: ConnectorRegistry;
  cipher: TokenCipher;
  ssoClients: SsoClients;
  now: () => Date;
  log?: FastifyBaseLogger;
  /**
   * Runs `fn` holding a lock of every server of the database (`Database.withAdvisoryLock`): one
   * refresh or disconnection of a connection at a time across a PostgreSQL cluster. None: this
   * process only.
   */
  withLock?: <T>(key: number, fn: () => Promise<T>) => Promise<T>;
}

/** The advisory lock key of a connection's refresh and disconnection: 52 bits of its id (a uuid). */
const refreshLockKey = (connectionId: string) =>
  Number.parseInt(connectionId.replace(/-/g, "").slice(0, 13), 16);

/**
 * The data sources joined to their connection (`connections.integration_type` and the rest); the
 * caller names the organisation and what it selects.
 */
export function sourcesWithConnection(db: Kysely<Schema>) {
  return db
    .selectFrom("data_sources")
    .innerJoin("connections", (join) =>
      join
        .onRef("connections.organisation_id", "=", "data_sources.organisation_id")
        .onRef("connections.id", "=", "data_sources.connection_id"),
    );
}

/** The organisation's connections, as the sign-up, the routes and the import jobs use them. */
export class Integrations {
  readonly connectors: ConnectorRegistry;
  readonly ssoClients: SsoClients;
  readonly uploadsDir: string;
  constructor(private readonly options: IntegrationsOptions) {
    this.connectors = options.connectors;
    this.ssoClients = options.ssoClients;
    this.uploadsDir = join(options.config.dataDir, "uploads");
  }

  /** The refresh of each connection under way in this process, by connection id. */
  private readonly refreshing = new Map<string, Promise<ConnectorAccess>>();
  /** The last of the refreshes and disconnections of each connection queued in this process. */
  private readonly held = new Map<string, Promise<unknown>>();

  /**
   * Runs `fn` alone for the connection: after what this process runs for it already, and holding the
   * connection's lock of every server (`withLock`), so that a refresh never rotates the tokens a
   * disconnection is revoking.
   */
  private exclusive<T>(connectionId: string, fn: () => Promise<T>): Promise<T> {
    const withLock = this.options.withLock ?? ((_key, run) => run());
    const before = this.held.get(connectionId) ?? Promise.resolve();
    const run = before.then(() => withLock(refreshLockKey(connectionId), fn));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.held.set(connectionId, settled);
    void settled.then(() => {
      if (this.held.get(connectionId) === settled) this.held.delete(connectionId);
    });
    return run;
  }

  private context(organisationId: string, connectionId: string, which: "access" | "refresh") {
    return `${organisationId}/${connectionId}/${which}`;
  }

  /**
   * Keeps a sign-up's (or a later connection's) grant as the organisation's connection and lists its
   * data sources. The same identity connected again keeps its connection and its sources, with the
   * new tokens, and gains the sources it did not reach before. A provider that is not an accounting
   * package makes none; a failed listing leaves the connection without new sources (logged, without
   * the token) and the sign-up goes on.
   */
  async saveSignUpConnection(args: {
    organisationId: string;
    provider: string;
    issuer: string;
    subject: string;
    grant: ProviderGrant;
    /** QuickBooks' company id from the callback (`realmId`). */
    hint: string | undefined;
  }): Promise<{ connectionId: string; sources: number } | null> {
    const type = packageOfProvider(args.provider);
    if (!type) return null;
    const { db, cipher } = this.options;
    const tokens = (id: string) => ({
      access_token_encrypted: cipher.encrypt(
        args.grant.accessToken,
        this.context(args.organisationId, id, "access"),
      ),
      refresh_token_encrypted: args.grant.refreshToken
        ? cipher.encrypt(args.grant.refreshToken, this.context(args.organisationId, id, "refresh"))
        : null,
      access_expires_at: args.grant.expiresAt,
    });
    const existing = await db
      .selectFrom("connections")
      .select("id")
      .where("organisation_id", "=", args.organisationId)
      .where("issuer", "=", args.issuer)
      .where("subject", "=", args.subject)
      .executeTakeFirst();
    const id = existing?.id ?? randomUUID();
    if (existing)
      await db
        .updateTable("connections")
        .set({ integration_type: type, ...tokens(id) })
        .where("organisation_id", "=", args.organisationId)
        .where("id", "=", id)
        .execute();
    else
      await db
        .insertInto("connections")
        .values({
          organisation_id: args.organisationId,
          id,
          integration_type: type,
          issuer: args.issuer,
          subject: args.subject,
          ...tokens(id),
        })
        .execute();
    try {
      const sources = await this.connectors[type].listSources(
        { apiUrl: this.options.config.accountingApiUrls[type], accessToken: args.grant.accessToken },
        args.hint,
      );
      for (const source of sources)
        await db
          .insertInto("data_sources")
          .values({
            organisation_id: args.organisationId,
            id: randomUUID(),
            connection_id: id,
            external_id: source.externalId,
            name: source.name,
            last_job_id: null,
          })
          .onConflict((oc) => oc.columns(["organisation_id", "connection_id", "external_id"]).doNothing())
          .execute();
      return { connectionId: id, sources: sources.length };
    } catch (error) {
      this.options.log?.warn(
        { organisation: args.organisationId, integrationType: type, reason: (error as Error).message },
        "listing the data sources of a new connection failed",
      );
      return { connectionId: id, sources: 0 };
    }
  }

  /**
   * Tells of an import from a data source that ended Failed or FailedPermanently, with the reason
   * and a link to the integration overview (built from configuration, never from a request), where
   * one can import again or connect the package again: the users responsible for the source's
   * connection who are not disabled, whoever started it; when there are none, the organisation's
   * admins, and only for a scheduled import (nobody watched it).
   * docs/integration.md, "When an import from a data source fails"
   */
  async tellImportFailed(
    mailer: Mailer,
    job: { organisation_id: string; id: string; data_source_id: string; user_id: string | null },
    message: string,
  ): Promise<void> {
    const { db } = this.options;
    const source = await sourcesWithConnection(db)
      .innerJoin("organisations", "organisations.id", "data_sources.organisation_id")
      .select([
        "data_sources.name",
        "data_sources.connection_id",
        "connections.integration_type",
        "organisations.tenant",
      ])
      .where("data_sources.organisation_id", "=", job.organisation_id)
      .where("data_sources.id", "=", job.data_source_id)
      .executeTakeFirst();
    if (!source) return;
    const scheduled = job.user_id === null;
    const responsible = (await responsibleUsers(db, job.organisation_id, source.connection_id)).filter(
      (user) => !user.disabled,
    );
    const told = responsible.length
      ? responsible
      : scheduled
        ? await db
            .selectFrom("users")
            .select(["id as userID", "email"])
            .where("organisation_id", "=", job.organisation_id)
            .where("is_admin", "=", true)
            .where("disabled_at", "is", null)
            .execute()
        : [];
    const packageName = accountingPackageNames[source.integration_type];
    const link = `${tenantSiteUrl(this.options.config, source.tenant)}/integration/overview`;
    for (const user of told)
      await mailer.send({
        to: user.email,
        subject: `Varia could not import ${source.name} from ${packageName}`,
        text: [
          `The ${scheduled ? "scheduled import" : "import"} of ${source.name} from ${packageName} failed: ${message}`,
          "",
          `Your figures stay as they were before it. Import again, or connect ${packageName} again if it asks you to sign in, on the integration overview:`,
          link,
        ].join("\n"),
        kind: "import-failed",
        userId: user.userID,
      });
    this.options.log?.info(
      {
        organisation: job.organisation_id,
        job: job.id,
        told: told.length,
        as: responsible.length ? "responsible" : "admins",
      },
      "told of a failed import from a data source",
    );
  }

  /**
   * Lists the connection's data sources again at the provider (docs/integration.md, "Configuring a connection"):
   * a current access token first, as an import takes one; the sources it newly
   * reaches are added, those still reached keep their id and take the provider's name, and those it
   * no longer reaches are deleted with their schedules. Answers the ids removed (their cron entries
   * are the caller's to drop); null when the organisation has no such connection.
   */
  async configureSources(
    organisationId: string,
    connectionId: string,
  ): Promise<{ added: number; removed: string[] } | null> {
    const { db } = this.options;
    const connection = await db
      .selectFrom("connections")
      .select(["id", "integration_type"])
      .where("organisation_id", "=", organisationId)
      .where("id", "=", connectionId)
      .executeTakeFirst();
    if (!connection) return null;
    const known = await db
      .selectFrom("data_sources")
      .select(["id", "external_id"])
      .where("organisation_id", "=", organisationId)
      .where("connection_id", "=", connectionId)
      .orderBy("created_at")
      .execute();
    const access = await this.access(organisationId, connectionId);
    // QuickBooks reaches the one company named at sign-in (realmId), which is the hint.
    const hint = connection.integration_type === "Quickbooks" ? known[0]?.external_id : undefined;
    const listed = await this.connectors[connection.integration_type].listSources(access, hint);
    const reached = new Map(listed.map((source) => [source.externalId, source.name]));
    const gone = known.filter((source) => !reached.has(source.external_id)).map((source) => source.id);
    const added = listed.filter((source) => !known.some((k) => k.external_id === source.externalId));
    const kept = await db.transaction().execute(async (tx) => {
      // Disconnected meanwhile: nothing to list the sources of.
      const still = await tx
        .selectFrom("connections")
        .select("id")
        .where("organisation_id", "=", organisationId)
        .where("id", "=", connectionId)
        .forUpdate()
        .executeTakeFirst();
      if (!still) return false;
      if (gone.length)
        await tx
          .deleteFrom("data_sources")
          .where("organisation_id", "=", organisationId)
          .where("id", "in", gone)
          .execute();
      for (const [externalId, name] of reached)
        await tx
          .insertInto("data_sources")
          .values({
            organisation_id: organisationId,
            id: randomUUID(),
            connection_id: connectionId,
            external_id: externalId,
            name,
            last_job_id: null,
          })
          .onConflict((oc) =>
            oc.columns(["organisation_id", "connection_id", "external_id"]).doUpdateSet({ name }),
          )
          .execute();
      return true;
    });
    if (!kept) return null;
    this.options.log?.info(
      { organisation: organisationId, connection: connectionId, added: added.length, removed: gone.length },
      "data sources of a connection listed again",
    );
    return { added: added.length, removed: gone };
  }

  /**
   * Disconnects (docs/integration.md, "Disconnecting"): revokes the connection's refresh token at its
   * provider, then deletes the connection with its data sources (their schedules and the responsible
   * users' rows go with them). The provider is asked outside any transaction, holding the
   * connection's lock so that no refresh rotates the token meanwhile. A revocation that fails (the
   * provider refuses it or cannot be reached) is logged as a warning naming the connection, the
   * provider and its status, never a token, and the connection is deleted all the same. Answers the
   * ids of the sources deleted (their cron entries are the caller's to drop) and whether the grant
   * was revoked; null when the organisation has no such connection.
   */
  async disconnect(
    organisationId: string,
    connectionId: string,
  ): Promise<{ sources: string[]; revoked: boolean } | null> {
    const { db } = this.options;
    return this.exclusive(connectionId, async () => {
      const row = await db
        .selectFrom("connections")
        .select(["id", "integration_type", "refresh_token_encrypted"])
        .where("organisation_id", "=", organisationId)
        .where("id", "=", connectionId)
        .executeTakeFirst();
      if (!row) return null;
      // Revoked first, deleted after: a failure between the two leaves the tokens where a second
      // Disconnect finds them, never a live grant that Varia has forgotten.
      const revoked = await this.revoke(organisationId, row);
      const sources = await db.transaction().execute(async (tx) => {
        const found = await tx
          .selectFrom("data_sources")
          .select("id")
          .where("organisation_id", "=", organisationId)
          .where("connection_id", "=", connectionId)
          .execute();
        const deleted = await tx
          .deleteFrom("connections")
          .where("organisation_id", "=", organisationId)
          .where("id", "=", connectionId)
          .executeTakeFirst();
        return Number(deleted.numDeletedRows) === 0 ? null : found.map((source) => source.id);
      });
      return sources && { sources, revoked };
    });
  }

  /**
   * Disconnects every connection of an organisation about to be deleted (docs/integration.md,
   * "Deleting an organisation"): each as `disconnect` does, its grant revoked at its provider first,
   * best effort. A connection that cannot be disconnected (the database failed) is logged as an error
   * naming it, and the others go on: the deletion of the organisation removes it all the same. Answers
   * the ids of the data sources deleted, how many connections there were and how many were revoked.
   */
  async disconnectAll(
    organisationId: string,
  ): Promise<{ sources: string[]; connections: number; revoked: number }> {
    const rows = await this.options.db
      .selectFrom("connections")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .orderBy("id")
      .execute();
    const result = { sources: [] as string[], connections: rows.length, revoked: 0 };
    for (const { id } of rows) {
      try {
        const done = await this.disconnect(organisationId, id);
        if (!done) continue;
        result.sources.push(...done.sources);
        if (done.revoked) result.revoked++;
      } catch (error) {
        this.options.log?.error(
          { organisation: organisationId, connection: id, reason: (error as Error).message },
          "a connection of an organisation being deleted could not be disconnected",
        );
      }
    }
    return result;
  }

  /**
   * Revokes the connection's grant at its provider with its refresh token; false, after a warning in
   * the log, when it could not be (never a token in the log).
   */
  private async revoke(
    organisationId: string,
    row: { id: string; integration_type: AccountingPackage; refresh_token_encrypted: string | null },
  ): Promise<boolean> {
    const type = row.integration_type;
    const provider = providerOfPackage[type];
    const warn = (reason: string, status: number | null) =>
      this.options.log?.warn(
        { organisation: organisationId, connection: row.id, provider, status, reason },
        "the grant could not be revoked at the provider; the connection is deleted all the same",
      );
    if (!row.refresh_token_encrypted) {
      warn("the connection holds no refresh token; its access token lapses when it expires", null);
      return false;
    }
    const client = this.options.config.ssoProviders[provider];
    if (!client) {
      warn(`signing in with ${provider} is not configured on this server`, null);
      return false;
    }
    let refreshToken: string;
    try {
      refreshToken = this.options.cipher.decrypt(
        row.refresh_token_encrypted,
        this.context(organisationId, row.id, "refresh"),
      );
    } catch {
      warn("the stored refresh token could not be decrypted", null);
      return false;
    }
    try {
      await this.connectors[type].revoke({
        revocationUrl: this.options.config.accountingRevocationUrls[type],
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        refreshToken,
      });
    } catch (error) {
      // A ConnectorError's message names the provider and its status, never a token; another
      // error's message is not trusted to leave it out.
      if (error instanceof ConnectorError) warn(error.message, error.status ?? null);
      else warn(`the revocation failed (${(error as Error).name})`, null);
      return false;
    }
    this.options.log?.info(
      { organisation: organisationId, connection: row.id, provider },
      "grant revoked at the provider",
    );
    return true;
  }

  /** A current access token of the connection: refreshed and stored first when it has expired. */
  async access(organisationId: string, connectionId: string): Promise<ConnectorAccess> {
    const current = await this.currentAccess(organisationId, connectionId);
    if (current) return current;
    // One refresh of a connection at a time: a provider that rotates refresh tokens refuses the
    // second use of one, which would read as a revoked grant. Whoever waited finds the tokens the
    // first one stored. See docs/integration.md, "Connections and tokens".
    const under = this.refreshing.get(connectionId);
    if (under) return under;
    const refresh = this.exclusive(
      connectionId,
      async () =>
        (await this.currentAccess(organisationId, connectionId)) ??
        (await this.refresh(organisationId, connectionId)),
    ).finally(() => this.refreshing.delete(connectionId));
    this.refreshing.set(connectionId, refresh);
    return refresh;
  }

  /** The stored access token while it is current (not within the margin of its expiry); else null. */
  private async currentAccess(organisationId: string, connectionId: string): Promise<ConnectorAccess | null> {
    const row = await this.connectionRow(organisationId, connectionId);
    const expiresAt = row.access_expires_at ? new Date(row.access_expires_at as unknown as string) : null;
    if (expiresAt && expiresAt.getTime() - refreshMarginMs <= this.options.now().getTime()) return null;
    return {
      apiUrl: this.options.config.accountingApiUrls[row.integration_type],
      accessToken: this.options.cipher.decrypt(
        row.access_token_encrypted,
        this.context(organisationId, row.id, "access"),
      ),
    };
  }

  private async connectionRow(organisationId: string, connectionId: string) {
    const row = await this.options.db
      .selectFrom("connections")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", connectionId)
      .executeTakeFirst();
    if (!row) throw new ConnectorError("The connection no longer exists");
    return row;
  }

  /** Takes new tokens with the refresh grant and stores them, encrypted, in place of the old. */
  private async refresh(organisationId: string, connectionId: string): Promise<ConnectorAccess> {
    const { db, cipher, now } = this.options;
    const row = await this.connectionRow(organisationId, connectionId);
    const type = row.integration_type;
    const apiUrl = this.options.config.accountingApiUrls[type];
    if (!row.refresh_token_encrypted)
      throw new ConnectorError(
        `The ${accountingPackageNames[type]} authorisation has expired: sign in with it again`,
      );
    const refreshToken = cipher.decrypt(
      row.refresh_token_encrypted,
      this.context(organisationId, row.id, "refresh"),
    );
    let grant: ProviderGrant;
    try {
      grant = await refreshGrant(await this.ssoClients.get(providerOfPackage[type]), refreshToken, now());
    } catch (error) {
      // The provider refused the refresh token (revoked, expired): only a new sign-in helps.
      if (error instanceof ResponseBodyError)
        throw new ConnectorError(
          `The ${accountingPackageNames[type]} authorisation was refused (${error.error}): sign in with it again`,
          error.status,
        );
      throw new ConnectorError(
        `Refreshing the ${accountingPackageNames[type]} authorisation failed`,
        undefined,
        true,
      );
    }
    await db
      .updateTable("connections")
      .set({
        access_token_encrypted: cipher.encrypt(
          grant.accessToken,
          this.context(organisationId, row.id, "access"),
        ),
        refresh_token_encrypted: grant.refreshToken
          ? cipher.encrypt(grant.refreshToken, this.context(organisationId, row.id, "refresh"))
          : null,
        access_expires_at: grant.expiresAt,
      })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", row.id)
      .execute();
    this.options.log?.info({ organisation: organisationId, connection: row.id }, "provider tokens refreshed");
    return { apiUrl, accessToken: grant.accessToken };
  }

  /**
   * Reads a Connector job's data source through its connector into the job's file (Varia's CSV). A
   * `ConnectorError` that is not retryable becomes a `FinalImportFailure` (the job ends Failed);
   * any other failure is tried again.
   */
  async readSource(job: ConnectorJobRow): Promise<void> {
    try {
      await this.writeSource(job);
    } catch (error) {
      if (error instanceof ConnectorError && !error.retryable)
        throw new FinalImportFailure(error.message, error.status);
      throw error;
    }
  }

  private async writeSource(job: ConnectorJobRow): Promise<void> {
    const source = await sourcesWithConnection(this.options.db)
      .select([
        "data_sources.connection_id",
        "data_sources.external_id",
        "data_sources.name",
        "connections.integration_type",
      ])
      .where("data_sources.organisation_id", "=", job.organisation_id)
      .where("data_sources.id", "=", job.data_source_id ?? "")
      .executeTakeFirst();
    if (!source) throw new ConnectorError("The data source no longer exists");
    const access = await this.access(job.organisation_id, source.connection_id);
    const known = await this.options.db
      .selectFrom("items")
      .select("code")
      .where("organisation_id", "=", job.organisation_id)
      .execute();
    const converted = await this.connectors[source.integration_type].readInvoices(
      access,
      { externalId: source.external_id, name: source.name },
      { knownItemCodes: new Set(known.map((item) => item.code)) },
    );
    await mkdir(dirname(job.file_path), { recursive: true });
    await writeFile(job.file_path, converted.csv);
    if (converted.skipped.length)
      this.options.log?.info(
        { job: job.id, skipped: converted.skipped.length, first: converted.skipped[0] },
        "lines of the data source that could not be placed were skipped",
      );
  }
}

/** A user as the responsibility calls answer one. */
const responsibleUserOfRow = (row: { id: string; name: string; email: string; disabled_at: unknown }) => ({
  userID: row.id,
  name: row.name,
  email: row.email,
  disabled: row.disabled_at !== null,
});

/**
 * Who may be made responsible: every user of the organisation, by name (for a caller who manages
 * connections but may not list users).
 */
export async function responsibilityCandidates(db: Kysely<Schema>, organisationId: string) {
  const rows = await db
    .selectFrom("users")
    .select(["id", "name", "email", "disabled_at"])
    .where("organisation_id", "=", organisationId)
    .orderBy("name")
    .orderBy("email")
    .execute();
  return rows.map(responsibleUserOfRow);
}

/** The users responsible for a connection (docs/integration.md, "Responsible users"), by name. */
export async function responsibleUsers(db: Kysely<Schema>, organisationId: string, connectionId: string) {
  const rows = await db
    .selectFrom("connection_responsibilities")
    .innerJoin("users", (join) =>
      join
        .onRef("users.organisation_id", "=", "connection_responsibilities.organisation_id")
        .onRef("users.id", "=", "connection_responsibilities.user_id"),
    )
    .select(["users.id", "users.name", "users.email", "users.disabled_at"])
    .where("connection_responsibilities.organisation_id", "=", organisationId)
    .where("connection_responsibilities.connection_id", "=", connectionId)
    .orderBy("users.name")
    .orderBy("users.email")
    .execute();
  return rows.map(responsibleUserOfRow);
}

/**
 * The organisation's connections as the API gives them, oldest first; only the one named when
 * `connectionId` is given. Never a token, issuer or subject.
 * docs/integration.md, "Connections in the API"
 */
export async function describeConnections(
  db: Kysely<Schema>,
  organisationId: string,
  connectionId?: string,
): Promise<Connection[]> {
  let connections = db
    .selectFrom("connections")
    .select(["id", "integration_type", "created_at"])
    .where("organisation_id", "=", organisationId);
  if (connectionId) connections = connections.where("id", "=", connectionId);
  const rows = await connections.orderBy("created_at").orderBy("id").execute();
  if (!rows.length) return [];
  const ids = rows.map((row) => row.id);
  const sources = await db
    .selectFrom("data_sources")
    .select(["id", "connection_id", "name", "last_job_id"])
    .where("organisation_id", "=", organisationId)
    .where("connection_id", "in", ids)
    .orderBy("name")
    .orderBy("id")
    .execute();
  const responsible = await db
    .selectFrom("connection_responsibilities")
    .select(["connection_id", "user_id"])
    .where("organisation_id", "=", organisationId)
    .where("connection_id", "in", ids)
    .orderBy("user_id")
    .execute();
  return rows.map((row) => ({
    integrationGuid: row.id,
    integrationType: row.integration_type,
    connectedAt: new Date(row.created_at as unknown as string).toISOString(),
    dataSources: sources
      .filter((source) => source.connection_id === row.id)
      .map((source) => ({ id: source.id, name: source.name, lastJobGuid: source.last_job_id })),
    responsibleUserIDs: responsible.filter((r) => r.connection_id === row.id).map((r) => r.user_id),
  }));
}

/**
 * Queues an import from one of the organisation's data sources (kind Connector, its file written
 * when the job runs) and makes it the source's last job. A job of the source still waiting or running
 * is answered instead of a second one. Null when the organisation has no such source.
 */
export async function enqueueSourceImport(
  queue: ImportQueue,
  uploadsDir: string,
  job: { organisationId: string; dataSourceId: string; userId: string | null },
): Promise<{ jobGuid: string } | null> {
  const { db } = queue.database;
  const source = await sourcesWithConnection(db)
    .select(["data_sources.id", "data_sources.name", "connections.integration_type"])
    .where("data_sources.organisation_id", "=", job.organisationId)
    .where("data_sources.id", "=", job.dataSourceId)
    .executeTakeFirst();
  if (!source) return null;
  const open = await db
    .selectFrom("import_jobs")
    .select("id")
    .where("organisation_id", "=", job.organisationId)
    .where("data_source_id", "=", source.id)
    .where("status", "in", ["Pending", "Running"])
    .executeTakeFirst();
  if (open) return { jobGuid: open.id };
  const id = randomUUID();
  await queueJob(queue, {
    organisationId: job.organisationId,
    userId: job.userId,
    kind: "Connector",
    fileName: `${accountingPackageNames[source.integration_type]}: ${source.name}`,
    id,
    filePath: join(uploadsDir, `${id}.csv`),
    dataSourceId: source.id,
  });
  await db
    .updateTable("data_sources")
    .set({ last_job_id: id })
    .where("organisation_id", "=", job.organisationId)
    .where("id", "=", source.id)
    .execute();
  return { jobGuid: id };
}

/**
 * A schedule's occurrence (docs/integration.md, "Schedules"): the data source's import is queued, as
 * by no user. A schedule whose source went with its organisation is removed.
 */
export async function queueScheduledImport(
  queue: ImportQueue,
  uploadsDir: string,
  data: ScheduledImportData,
  log?: FastifyBaseLogger,
): Promise<{ jobGuid: string } | null> {
  const queued = await enqueueSourceImport(queue, uploadsDir, { ...data, userId: null });
  if (!queued) await queue.unschedule(data.dataSourceId);
  log?.info({ dataSource: data.dataSourceId, job: queued?.jobGuid ?? null }, "scheduled import");
  return queued;
}
