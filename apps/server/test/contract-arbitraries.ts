import type { Contract } from "@varia/contracts";
import fc from "fast-check";
import type { z } from "zod";

/*
 * fast-check arbitraries made from the zod schemas of the contracts, so that a new contract, or a
 * new field of one, is fuzzed without a line here. Mostly values the schema describes (strings of
 * its patterns and lengths, numbers within its bounds, its enums), sometimes values just beside it
 * (another type, an empty or long string, a number out of bounds): well-formed requests that a
 * careless client or an attacker would send.
 */

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are read structurally
type Def = Record<string, any>;

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A value of the wrong kind: what a client sends when it misreads a field. */
const stray: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", " ", "null", "0000-00", "0000-01", "9999-12", "-1", "1e308", "NaN", "%", "\u0000"),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

/** Mostly `valid`, sometimes a stray value. */
const mostly = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: stray, weight: 1 });

/** Strings of a pattern (fast-check reads no flags: a case-insensitive one is taken as it is written). */
function matching(pattern: RegExp): fc.Arbitrary<string> {
  return fc.stringMatching(new RegExp(pattern.source, pattern.flags.replace(/[^msu]/g, "")));
}

function stringArbitrary(def: Def): fc.Arbitrary<unknown> {
  const checks: Def[] = (def.checks ?? []).map((c: { _zod: { def: Def } }) => c._zod.def);
  let minLength = 0;
  let maxLength = 40;
  const patterns: RegExp[] = [];
  for (const check of checks) {
    if (check.check === "min_length") minLength = Math.max(minLength, check.minimum);
    if (check.check === "max_length") maxLength = Math.min(maxLength + 200, check.maximum);
    if (check.check === "length_equals") minLength = maxLength = check.length;
    if (check.check === "string_format" && check.format === "regex") patterns.push(check.pattern);
  }
  maxLength = Math.max(minLength, Math.min(maxLength, 300));
  let valid: fc.Arbitrary<string>;
  if (def.format === "uuid" || def.format === "guid") valid = fc.uuid();
  else if (def.format === "email") valid = fc.emailAddress();
  else if (patterns.length)
    valid = matching(patterns[0]!).filter(
      (s) => s.length >= minLength && s.length <= maxLength && patterns.every((p) => p.test(s)),
    );
  else
    valid = fc.oneof(
      fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 20) }),
      fc.string({ unit: "grapheme", minLength, maxLength: Math.min(maxLength, minLength + 8) }),
    );
  const edges = fc.constantFrom("", "a".repeat(maxLength), "a".repeat(maxLength + 1), " x ", "\u202e");
  return fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: edges, weight: 1 });
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  const checks: Def[] = (def.checks ?? []).map((c: { _zod: { def: Def } }) => c._zod.def);
  let min = -1e12;
  let max = 1e12;
  let integer = false;
  for (const check of checks) {
    if (check.check === "greater_than") min = Math.max(min, check.value + (check.inclusive ? 0 : 1));
    if (check.check === "less_than") max = Math.min(max, check.value - (check.inclusive ? 0 : 1));
    if (check.check === "number_format" && /int/.test(check.format)) integer = true;
  }
  const inRange = integer
    ? fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31)) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const beside = fc.constantFrom(min - 1, max + 1, 0, -1, 0.5, 2 ** 53);
  return fc.oneof({ arbitrary: inRange, weight: 5 }, { arbitrary: beside, weight: 1 });
}

/** A JSON value for `schema` (undefined for an absent one). */
export function arbitraryOf(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return mostly(stringArbitrary(def));
    case "number":
      return mostly(numberArbitrary(def));
    case "boolean":
      return mostly(fc.boolean());
    case "literal":
      return mostly(fc.constantFrom(...(def.values as unknown[])));
    case "enum":
      return mostly(fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)));
    case "null":
      return fc.constant(null);
    case "undefined":
    case "void":
    case "never":
      return fc.constant(undefined);
    case "optional":
      return fc.option(arbitraryOf(def.innerType, depth), { nil: undefined, freq: 3 });
    case "nullable":
      return fc.option(arbitraryOf(def.innerType, depth), { nil: null, freq: 4 });
    case "default":
    case "prefault":
      return fc.option(arbitraryOf(def.innerType, depth), { nil: undefined, freq: 3 });
    case "catch":
    case "readonly":
    case "nonoptional":
      return arbitraryOf(def.innerType, depth);
    case "pipe":
      // A transform reads what its input schema takes.
      return defOf(def.in).type === "transform" ? arbitraryOf(def.out, depth) : arbitraryOf(def.in, depth);
    case "lazy":
      return depth > 3 ? fc.constant(null) : arbitraryOf(def.getter(), depth + 1);
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map((o) => arbitraryOf(o, depth)));
    case "array": {
      const item = arbitraryOf(def.element, depth + 1);
      return mostly(fc.array(item, { maxLength: depth > 2 ? 1 : 4 }));
    }
    case "tuple":
      return fc.tuple(...(def.items as z.ZodType[]).map((i) => arbitraryOf(i, depth + 1)));
    case "record":
      return fc.dictionary(fc.string({ maxLength: 8 }), arbitraryOf(def.valueType, depth + 1), {
        maxKeys: 3,
      });
    case "object":
      return mostly(objectArbitrary(def.shape as Record<string, z.ZodType>, depth));
    case "intersection":
      return fc
        .tuple(arbitraryOf(def.left, depth), arbitraryOf(def.right, depth))
        .map(([a, b]) => (typeof a === "object" && typeof b === "object" ? { ...a, ...b } : a));
    default:
      // unknown, any, transform, custom and whatever else: any JSON value.
      return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** An object of the shape's fields (absent ones left out), now and then with a stray key. */
function objectArbitrary(shape: Record<string, z.ZodType>, depth: number): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, arbitraryOf(s, depth + 1)]));
  return fc
    .tuple(fc.record(fields), fc.option(fc.tuple(fc.string({ maxLength: 10 }), stray), { freq: 8 }))
    .map(([value, extra]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
      if (extra && !(extra[0] in shape)) out[extra[0]] = extra[1];
      return out;
    });
}

/** A value as a query string carries it. */
function queryText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** A key as a client may spell it: the query's keys are matched without regard to case. */
const spelled = (key: string) =>
  fc.constantFrom(key, key.toLowerCase(), key.charAt(0).toUpperCase() + key.slice(1), key.toUpperCase());

/** The query string of a contract: its fields as text, each key in some case, absent ones left out. */
export function queryArbitrary(contract: Contract): fc.Arbitrary<[string, string][]> {
  const schema = contract.query;
  if (!schema || defOf(schema).type !== "object") return fc.constant([]);
  const shape = defOf(schema).shape as Record<string, z.ZodType>;
  const entries = Object.entries(shape).map(([key, field]) =>
    fc
      .tuple(spelled(key), arbitraryOf(field, 1))
      .map(([name, value]) =>
        value === undefined || value === null ? [] : [[name, queryText(value)] as [string, string]],
      ),
  );
  return fc.tuple(...entries).map((parts) => parts.flat());
}

/** Raw text a careless or hostile client appends to a query string, encoded or not. */
export const rawQueryArbitrary = fc.option(
  fc.constantFrom(
    "%zz=1",
    "a=%E0%A4%A",
    "=",
    "&&",
    "x[]=1&x[]=2",
    "__proto__=1",
    "constructor[prototype][polluted]=1",
    "a=%00",
    `q=${"x".repeat(5000)}`,
  ),
  { freq: 4 },
);

/** The path parameters of a contract. */
export function paramsArbitrary(contract: Contract): fc.Arbitrary<Record<string, string>> {
  const schema = contract.params;
  if (!schema || defOf(schema).type !== "object") return fc.constant({});
  const shape = defOf(schema).shape as Record<string, z.ZodType>;
  return fc.record(
    Object.fromEntries(
      Object.entries(shape).map(([key, field]) => [
        key,
        arbitraryOf(field, 1).map((v) => (v === undefined || v === null ? "x" : queryText(v)) || "x"),
      ]),
    ),
  );
}

/** A multipart/form-data body: a part named `csv` (or another name) holding CSV-like text. */
export const multipartArbitrary = fc
  .record({
    boundary: fc.stringMatching(/^[A-Za-z0-9'()+_,.\-=?]{1,40}$/),
    name: fc.constantFrom("csv", "csv", "file", ""),
    filename: fc.constantFrom(
      "lines.csv",
      "LINES.CSV",
      "lines.txt",
      "",
      "../../etc/passwd.csv",
      "a\u0000.csv",
      `${"é".repeat(300)}.csv`,
    ),
    content: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-05-01,I1,C1,P1,Subscription,1,10.00\n",
        "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n0000-05-01,I1,C1,P1,Subscription,1,10.00,extra\n",
      ),
    ),
    closed: fc.boolean(),
  })
  .map(({ boundary, name, filename, content, closed }) => ({
    contentType: `multipart/form-data; boundary=${boundary}`,
    body:
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
      `Content-Type: text/csv\r\n\r\n${content}\r\n${closed ? `--${boundary}--\r\n` : ""}`,
  }));
