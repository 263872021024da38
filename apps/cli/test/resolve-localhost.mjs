/**
 * Preloaded into the `varia` processes of the tests that reach a tenant's site
 * (`node --import ./resolve-localhost.mjs`): `localhost` and `*.localhost` resolve to 127.0.0.1, as
 * browsers do (RFC 6761), because this machine's resolver does not know `*.localhost` and API
 * tokens count only on their own tenant's host.
 */
import dns from "node:dns";

const lookup = dns.lookup;
dns.lookup = (host, options, callback) => {
  if (typeof options === "function") [callback, options] = [options, {}];
  if (!/(^|\.)localhost$/i.test(host)) return lookup(host, options, callback);
  const wanted = typeof options === "number" ? { family: options } : (options ?? {});
  if (wanted.all) return callback(null, [{ address: "127.0.0.1", family: 4 }]);
  return callback(null, "127.0.0.1", 4);
};
