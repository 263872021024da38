/** Where the client reads the XSRF cookie, and in Node keeps the cookies a browser would. */
export interface CookieJar {
  get(name: string): string | undefined;
  /** The Cookie header to send, if the jar sends one itself (Node). */
  header?(): string | undefined;
  /** Takes the Set-Cookie lines of an answer (Node). */
  store?(setCookie: string[]): void;
}

/** The browser's own cookies; the browser sends and stores them itself. */
export function documentCookieJar(): CookieJar {
  return {
    get(name) {
      const doc = (globalThis as { document?: { cookie: string } }).document;
      if (!doc) return undefined;
      for (const part of doc.cookie.split(";")) {
        const [key, ...rest] = part.trim().split("=");
        if (key === name) return decodeURIComponent(rest.join("="));
      }
      return undefined;
    },
  };
}

/** An in-memory jar for Node callers that sign in with a password. */
export function memoryCookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    get: (name) => cookies.get(name),
    header: () => (cookies.size ? [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") : undefined),
    store(lines) {
      for (const line of lines) {
        const [pair, ...attributes] = line.split(";");
        const [name, ...rest] = (pair ?? "").trim().split("=");
        if (!name) continue;
        const value = rest.join("=");
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
        if (!value || expired) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}
