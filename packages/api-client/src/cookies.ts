/** Where the client reads the XSRF cookie, and in Node keeps the cookies a browser would. */
export interface CookieJar {
  get(name: string): string | undefined;
  /** The Cookie header to send, if the jar sends one itself (Node). */
  header?(): string | undefined;
  /** Takes the Set-Cookie lines of an answer (Node). */
  store?(setCookie: string[]): void;
}

function browserDocument(): { cookie: string } | undefined {
  return (globalThis as { document?: { cookie: string } }).document;
}

/** The browser's own cookies (`document.cookie`); the browser sends and stores them itself. */
export function documentCookieJar(): CookieJar {
  return {
    get(name) {
      for (const part of (browserDocument()?.cookie ?? "").split(";")) {
        const [key, ...rest] = part.trim().split("=");
        if (key === name) return decodeURIComponent(rest.join("="));
      }
      return undefined;
    },
  };
}

function isExpired(attributes: string[], now: number): boolean {
  for (const attribute of attributes) {
    const [key = "", ...rest] = attribute.trim().split("=");
    const value = rest.join("=").trim();
    if (/^max-age$/i.test(key) && Number(value) <= 0) return true;
    if (/^expires$/i.test(key) && Date.parse(value) <= now) return true;
  }
  return false;
}

/**
 * An in-memory jar for Node callers (one server, so domain and path are not tracked): keeps the
 * session and XSRF cookies the server sets and sends them back, as a browser would.
 */
export function memoryCookieJar(now: () => number = Date.now): CookieJar {
  const cookies = new Map<string, string>();
  return {
    get: (name) => cookies.get(name),
    header: () => (cookies.size ? [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") : undefined),
    store(lines) {
      for (const line of lines) {
        const [pair = "", ...attributes] = line.split(";");
        const [name, ...rest] = pair.trim().split("=");
        if (!name) continue;
        const value = rest.join("=");
        if (!value || isExpired(attributes, now())) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}

/** `document.cookie` in a browser, an in-memory jar elsewhere. */
export function defaultCookieJar(): CookieJar {
  return browserDocument() ? documentCookieJar() : memoryCookieJar();
}
