import { AsyncLocalStorage } from "node:async_hooks";
import { type ConnectionBuilder, Kysely, type KyselyConfig, type TransactionBuilder } from "kysely";

/**
 * Thrown when code that holds the database's connection (a transaction, or `db.connection()`)
 * queries through the outer handle. On PGlite, whose one connection the holder keeps, that query
 * would wait for ever and take the whole server with it; on PostgreSQL it would run outside the
 * transaction, on a second connection, and miss what the transaction wrote. Either way it is a bug:
 * inside a transaction, query through the handle the callback receives.
 */
export class OuterHandleInTransactionError extends Error {
  constructor() {
    super(
      "A query used the outer database handle while this code holds a transaction (or a connection): " +
        "use the handle the transaction callback receives",
    );
    this.name = "OuterHandleInTransactionError";
  }
}

/**
 * Knows which code runs while a transaction of one database holds a connection: the callback of
 * `transaction().execute`, `connection().execute` and `Database.bulkTransaction`, and everything it
 * awaits. The driver asks `assertOutside` before it hands out a connection.
 */
export class TransactionScope {
  private readonly holders = new AsyncLocalStorage<{ open: boolean }>();

  /** Runs `fn` as code that holds a connection, until it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    // A mark that closes when `fn` settles: work `fn` started and left running (a timer, an event
    // handler) inherits the mark but may use the outer handle once the transaction is over.
    const mark = { open: true };
    try {
      return await this.holders.run(mark, fn);
    } finally {
      mark.open = false;
    }
  }

  /** Throws `OuterHandleInTransactionError` when called from code that holds a connection. */
  assertOutside(): void {
    if (this.holders.getStore()?.open) throw new OuterHandleInTransactionError();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a callback of whichever handle the builder gives
type Executable = { execute(callback: (handle: any) => Promise<unknown>): Promise<unknown> };

/** A builder whose `execute` runs its callback in `scope`; builders it returns are wrapped too. */
function scoped<B extends object>(builder: B, scope: TransactionScope): B {
  return new Proxy(builder, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "execute")
        return (callback: (handle: unknown) => Promise<unknown>) =>
          (target as Executable).execute((handle) => scope.run(() => callback(handle)));
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result && typeof result === "object" && "execute" in result ? scoped(result, scope) : result;
      };
    },
  });
}

/**
 * The application's Kysely: every transaction and every held connection runs its callback in the
 * database's `TransactionScope`, so a query on this (outer) handle from inside it fails at once with
 * `OuterHandleInTransactionError` instead of deadlocking PGlite. Controlled transactions
 * (`startTransaction`), which no scope can follow, are not offered.
 */
export class ScopedKysely<DB> extends Kysely<DB> {
  readonly #scope: TransactionScope;

  constructor(config: KyselyConfig, scope: TransactionScope) {
    super(config);
    this.#scope = scope;
  }

  override transaction(): TransactionBuilder<DB> {
    return scoped(super.transaction(), this.#scope);
  }

  override connection(): ConnectionBuilder<DB> {
    return scoped(super.connection(), this.#scope);
  }

  override startTransaction(): never {
    throw new Error("Use transaction().execute(callback): its callback gets the only handle it may use");
  }
}
