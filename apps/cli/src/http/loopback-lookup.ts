import { type LookupAddress, type LookupAllOptions, type LookupOneOptions, lookup } from "node:dns";

/** `localhost` and every name under `.localhost` (RFC 6761 section 6.3). */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

type Callback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets that answers `localhost` and `*.localhost` with the loopback addresses
 * itself, as browsers and curl do, instead of asking the system resolver (which often knows only
 * `localhost`): so `http://acme.localhost:8080` reaches the tenant `acme` of a local server. IPv4
 * first, since the server listens on 0.0.0.0 by default. Every other name goes to `dns.lookup`.
 */
export function loopbackLookup(
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: Callback,
): void {
  if (!isLocalhostName(hostname)) {
    (lookup as unknown as (h: string, o: typeof options, c: Callback) => void)(hostname, options, callback);
    return;
  }
  const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
  const addresses: LookupAddress[] = [
    { address: "127.0.0.1", family: 4 },
    { address: "::1", family: 6 },
  ].filter((a) => !family || family === a.family);
  if (options.all) callback(null, addresses);
  else callback(null, addresses[0]!.address, addresses[0]!.family);
}
