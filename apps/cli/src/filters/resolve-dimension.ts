import type { ApiClient } from "@varia/api-client";
import { lookupClientList, lookupSalespersonList, lookupSkuList } from "@varia/contracts";
import { CliError } from "../errors/cli-error";
import { exitCodes } from "../errors/exit-codes";

/** A client, item or salesperson as the lookups name it. */
export interface Dimension {
  id: string;
  code: string;
  name: string;
}

type Page = { rows: Dimension[]; rowCount: number };

const pageSize = 1000;

/** How many of the rows that hold the text a "no such" lists under it. */
const suggestions = 5;

/**
 * Finds the one row a person meant by `text`: an exact code first (as written, then in any case),
 * else an exact name in any case. Several rows with that name is a usage error listing their codes;
 * none is the server's "no such" (exit 2), listing the first rows whose code or name contains the text.
 * Salespeople have names only (`byName`).
 */
async function findOne(
  kind: string,
  text: string,
  search: (startRow: number) => Promise<Page>,
  byName = false,
) {
  const wanted = text.trim();
  const lower = wanted.toLowerCase();
  const seen: Dimension[] = [];
  for (let startRow = 1; ; startRow += pageSize) {
    const page = await search(startRow);
    seen.push(...page.rows);
    const exact = seen.find((r) => r.code === wanted) ?? seen.find((r) => r.code.toLowerCase() === lower);
    if (exact) return exact;
    if (page.rows.length < pageSize || seen.length >= page.rowCount) break;
  }
  const named = seen.filter((r) => r.name.toLowerCase() === lower);
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new CliError(
      `${named.length} ${kind}s are named '${wanted}': give one of their codes (${named.map((r) => r.code).join(", ")})`,
    );
  const first = seen.slice(0, suggestions);
  const width = Math.max(0, ...first.map((r) => r.code.length));
  const near = first.map((r) => `  ${byName ? r.name : `${r.code.padEnd(width)}  ${r.name}`}`);
  const more = seen.length > suggestions ? [`  ... and ${seen.length - suggestions} more`] : [];
  throw new CliError(
    `No ${kind} ${byName ? "named" : "with the code or name"} '${wanted}'${
      seen.length ? `; ${seen.length} ${seen.length === 1 ? "contains" : "contain"} it:` : ""
    }`,
    exitCodes.refused,
    [...near, ...more],
  );
}

export function resolveClient(client: ApiClient, text: string): Promise<Dimension> {
  return findOne("client", text, async (startRow) => {
    const page = await client.call(lookupClientList, {
      body: { search: text.trim(), startRow, rowLimit: pageSize },
    });
    return {
      rowCount: page.rowCount,
      rows: page.rows.map((r) => ({ id: r.clientID, code: r.code, name: r.name })),
    };
  });
}

export function resolveItem(client: ApiClient, text: string): Promise<Dimension> {
  return findOne("service", text, async (startRow) => {
    const page = await client.call(lookupSkuList, {
      body: { search: text.trim(), startRow, rowLimit: pageSize },
    });
    return {
      rowCount: page.rowCount,
      rows: page.rows.map((r) => ({ id: r.stockItemID, code: r.code, name: r.name })),
    };
  });
}

/** A salesperson by name (salespeople have no code). */
export function resolveSalesperson(client: ApiClient, text: string): Promise<Dimension> {
  return findOne(
    "salesperson",
    text,
    async (startRow) => {
      const page = await client.call(lookupSalespersonList, {
        body: { search: text.trim(), startRow, rowLimit: pageSize },
      });
      return {
        rowCount: page.rowCount,
        rows: page.rows.map((r) => ({ id: r.salespersonID, code: r.name, name: r.name })),
      };
    },
    true,
  );
}

/** The ids of the dimensions named by a command's --client, --item and --salesperson, looked up at once. */
export async function resolveDimensions(
  client: ApiClient,
  options: { client?: string | undefined; item?: string | undefined; salesperson?: string | undefined },
) {
  const [c, i, s] = await Promise.all([
    options.client ? resolveClient(client, options.client) : undefined,
    options.item ? resolveItem(client, options.item) : undefined,
    options.salesperson ? resolveSalesperson(client, options.salesperson) : undefined,
  ]);
  return { client: c, item: i, salesperson: s };
}
