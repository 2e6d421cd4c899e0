import type { Database, DatabaseHandle } from './db/client.ts';
import type { Env } from './env.ts';
import { SessionCache, type SessionPolicy } from './features/accounts/index.ts';
import { BalanceCache, createLedger, type Ledger } from './features/ledger/index.ts';
import type { EventBus } from './lib/event-bus.ts';
import { dbIpLocator, noGeoLocator, type GeoLocator } from './lib/geo-locator.ts';
import type { RateRule } from './lib/rate-limiter.ts';

export interface RateLimits {
  loginPerUsername: RateRule;
  loginPerAddress: RateRule;
  registerPerAddress: RateRule;
  twoFactorPerAddress: RateRule;
  twoFactorPerUser: RateRule;
  paymentCreatePerUser: RateRule;
  paymentStatusPerUser: RateRule;
  payoutRequestPerUser: RateRule;
  reportPerUser: RateRule;
  passwordChangePerUser: RateRule;
  passwordResetPerAddress: RateRule;
  passwordResetPerAccount: RateRule;
  /** Redeeming mailed links (reset completion, e-mail verification): per address. */
  linkPerAddress: RateRule;
  verificationMailPerUser: RateRule;
  /** Closing one's own account asks for the password: checks of it, per account. */
  accountClosePerUser: RateRule;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  // Failed or not, ten tries per account in 15 minutes; a success clears the account's count.
  loginPerUsername: { name: 'login:user', limit: 10, windowMs: 15 * 60_000 },
  loginPerAddress: { name: 'login:ip', limit: 100, windowMs: 15 * 60_000 },
  registerPerAddress: { name: 'register:ip', limit: 20, windowMs: 60 * 60_000 },
  // A code is one of a million, but each password step allows five tries: these bound the
  // guesses of someone who has the password, from one address and at one account. A person who
  // mistypes a few codes stays far below both.
  twoFactorPerAddress: { name: 'two-factor:ip', limit: 30, windowMs: 15 * 60_000 },
  twoFactorPerUser: { name: 'two-factor:user', limit: 10, windowMs: 15 * 60_000 },
  // Creating a deposit calls a payment provider: five a minute is plenty for a person. Status
  // checks poll every 15 s (docs/product.md#constants); ten per 30 s leaves room for a second tab.
  paymentCreatePerUser: { name: 'payment:create', limit: 5, windowMs: 60_000 },
  paymentStatusPerUser: { name: 'payment:status', limit: 10, windowMs: 30_000 },
  // Each request is reviewed by a person: ten an hour is far above honest use and keeps a script
  // from flooding the admins' queue.
  payoutRequestPerUser: { name: 'payout:request', limit: 10, windowMs: 60 * 60_000 },
  // Reports go to a person too; someone with ten honest reports in an hour can wait for it.
  reportPerUser: { name: 'report:player', limit: 10, windowMs: 60 * 60_000 },
  // Account security (docs/accounts.md#account-security). A password change needs the current
  // password: the same budget as logins. Reset links go to a person's mailbox: three an hour per
  // account is enough to get one that arrives, and twenty per address lets a household or an office
  // share one.
  passwordChangePerUser: { name: 'password:change', limit: 10, windowMs: 15 * 60_000 },
  passwordResetPerAddress: { name: 'password-reset:ip', limit: 20, windowMs: 60 * 60_000 },
  passwordResetPerAccount: { name: 'password-reset:user', limit: 3, windowMs: 60 * 60_000 },
  linkPerAddress: { name: 'link:ip', limit: 30, windowMs: 60 * 60_000 },
  verificationMailPerUser: { name: 'verify-mail:user', limit: 5, windowMs: 60 * 60_000 },
  // Closing the account asks for the password, like a password change, and gets its budget: a
  // session left open cannot be used to guess the password here either.
  accountClosePerUser: { name: 'account-close:user', limit: 10, windowMs: 15 * 60_000 },
};

/** What every feature's routes and services receive: built once in `buildApp`. */
export interface AppContext {
  env: Env;
  database: DatabaseHandle;
  db: Database;
  bus: EventBus;
  ledger: Ledger;
  clock: () => Date;
  sessionPolicy: SessionPolicy;
  /** Sessions this instance checked in the last seconds (kept current by `bus` events). */
  sessionCache: SessionCache;
  /** Balances this instance showed in the last seconds (kept current by `bus` events). */
  balanceCache: BalanceCache;
  rateLimits: RateLimits;
  /**
   * The origin of PUBLIC_URL: allowed for unsafe requests, and https there means Secure cookies.
   */
  publicOrigin: string | undefined;
  /**
   * Where links in mail point: PUBLIC_URL, or this server on localhost when it is unset (never
   * the request's Host header, which a stranger could set to their own site).
   */
  linkBase: string;
  /** Delivers queued mail now, not at the worker's next tick: a person waits for a reset link. */
  wakeMail(): void;
  /**
   * Where a client's address is (docs/responsible-play.md); knows nothing when GEO_CHECK is off.
   */
  geo: GeoLocator;
}

/**
 * The context `buildApp` gives its features. Tests and scripts that drive a service without HTTP
 * build theirs here, so that it cannot drift from the server's.
 */
export function createAppContext(options: {
  env: Env;
  database: DatabaseHandle;
  bus: EventBus;
  clock?: () => Date;
  rateLimits?: Partial<RateLimits>;
  wrapLedger?: (ledger: Ledger) => Ledger;
  wakeMail?: () => void;
  geo?: GeoLocator;
}): AppContext {
  const { env, database, bus } = options;
  const ledger = createLedger(bus);
  return {
    env,
    database,
    db: database.db,
    bus,
    ledger: options.wrapLedger ? options.wrapLedger(ledger) : ledger,
    clock: options.clock ?? (() => new Date()),
    sessionPolicy: {
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      maxAgeMs: env.SESSION_MAX_DAYS * 86_400_000,
    },
    sessionCache: new SessionCache(),
    balanceCache: new BalanceCache(),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    publicOrigin: env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : undefined,
    linkBase: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    wakeMail: options.wakeMail ?? (() => {}),
    geo: options.geo ?? (env.GEO_CHECK ? dbIpLocator() : noGeoLocator),
  };
}
