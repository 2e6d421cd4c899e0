import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { buildApp, type BuildAppOptions } from '#server/app.ts';
import type { RateLimits } from '#server/context.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { users } from '#server/db/schema/users.ts';
import { parseEnv, type Env } from '#server/env.ts';
import { checkLedgerInvariants } from '#server/features/ledger/invariants.ts';
import { createLocalBus, type EventBus } from '#server/lib/event-bus.ts';
import type { RegisterBody } from '#shared/contracts/auth.ts';
import { openTestDatabase } from './database.ts';

// High enough that ordinary tests never meet them; the throttling tests set their own.
export const GENEROUS_RATE_LIMITS: RateLimits = {
  loginPerUsername: { name: 'login:user', limit: 10_000, windowMs: 60_000 },
  loginPerAddress: { name: 'login:ip', limit: 10_000, windowMs: 60_000 },
  registerPerAddress: { name: 'register:ip', limit: 10_000, windowMs: 60_000 },
  twoFactorPerAddress: { name: 'two-factor:ip', limit: 10_000, windowMs: 60_000 },
  twoFactorPerUser: { name: 'two-factor:user', limit: 10_000, windowMs: 60_000 },
  paymentCreatePerUser: { name: 'payment:create', limit: 10_000, windowMs: 60_000 },
  paymentStatusPerUser: { name: 'payment:status', limit: 10_000, windowMs: 30_000 },
  payoutRequestPerUser: { name: 'payout:request', limit: 10_000, windowMs: 60_000 },
  reportPerUser: { name: 'report:player', limit: 10_000, windowMs: 60_000 },
  passwordChangePerUser: { name: 'password:change', limit: 10_000, windowMs: 60_000 },
  passwordResetPerAddress: { name: 'password-reset:ip', limit: 10_000, windowMs: 60_000 },
  passwordResetPerAccount: { name: 'password-reset:user', limit: 10_000, windowMs: 60_000 },
  linkPerAddress: { name: 'link:ip', limit: 10_000, windowMs: 60_000 },
  verificationMailPerUser: { name: 'verify-mail:user', limit: 10_000, windowMs: 60_000 },
  accountClosePerUser: { name: 'account-close:user', limit: 10_000, windowMs: 60_000 },
};

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The app's event bus: what a test changes behind the app's back is announced here. */
  bus: EventBus;
  env: Env;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { env?: Record<string, string>; database?: DatabaseHandle } & Partial<
    Pick<
      BuildAppOptions,
      | 'clock'
      | 'rateLimits'
      | 'bus'
      | 'pingIntervalMs'
      | 'reconcilePaymentsEveryMs'
      | 'clientDir'
      | 'mailTransport'
      | 'mailEveryMs'
      | 'pageDataWaitMs'
    >
  > = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const env = parseEnv({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'skillstake-data-')),
    LOG_LEVEL: 'silent',
    // Production requires two-factor sign-in of admins; the tests of that rule turn it on, and
    // the tests of what admins do sign in with a password alone.
    ADMIN_2FA_REQUIRED: 'false',
    // Production requires an approved ID before payouts; the tests of that rule turn it on, and
    // the tests of what payouts do with money request them without one.
    KYC_REQUIRED_FOR_PAYOUT: 'false',
    ...options.env,
  });
  const bus = options.bus ?? createLocalBus();
  const app = await buildApp({
    env,
    database,
    bus,
    logger: false,
    // A test that looks at the client's pages gives a stand-in build; the real one may be absent.
    serveClient: options.clientDir !== undefined,
    ...(options.clientDir ? { clientDir: options.clientDir } : {}),
    rateLimits: options.rateLimits ?? GENEROUS_RATE_LIMITS,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
    ...(options.reconcilePaymentsEveryMs
      ? { reconcilePaymentsEveryMs: options.reconcilePaymentsEveryMs }
      : {}),
    ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}),
    ...(options.mailEveryMs ? { mailEveryMs: options.mailEveryMs } : {}),
    ...(options.pageDataWaitMs !== undefined ? { pageDataWaitMs: options.pageDataWaitMs } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    bus,
    env,
    close: async () => {
      await app.close();
      if (!options.bus) await bus.close();
      if (!options.database) await database.close();
    },
  };
}

/** Asserts the ledger invariants: every money test ends with this. */
export async function expectLedgerHealthy(database: DatabaseHandle): Promise<void> {
  const report = await checkLedgerInvariants(database.db);
  if (!report.ok) throw new Error(`Ledger invariants broken:\n${report.problems.join('\n')}`);
}

/**
 * Marks a player's current address as proven, as the mailed link would: for tests of mail that
 * only verified addresses receive (DESIGN §16), whose subject is not the verification itself.
 */
export async function markEmailVerified(database: DatabaseHandle, userId: number): Promise<void> {
  await database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId));
}

/** A browser-like client: keeps the session cookie between requests. */
/**
 * A clock that stands still at the moment it is made, for tests of the fixed-window rate limits:
 * under the running clock, a test's few requests can straddle the edge of a minute and be counted
 * in two windows, and the limit they test is then never reached.
 */
export function stillClock(): () => Date {
  const at = new Date();
  return () => at;
}

/**
 * A browser, as far as the API sees one: it keeps the session cookie and, like a browser, the
 * device cookie (docs/accounts.md#devices) the first response set. Agents made with one `device`
 * are one browser's accounts.
 */
export class Agent {
  private cookie: string | undefined;
  constructor(
    readonly app: FastifyInstance,
    private device?: string,
  ) {}

  /** This browser's device id, once a response has set it. */
  get deviceId(): string | undefined {
    return this.device;
  }

  get sessionCookie(): string | undefined {
    return this.cookie;
  }

  useCookie(cookie: string | undefined): void {
    this.cookie = cookie;
  }

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const headers = { ...(options.headers ?? {}) };
    const cookies = [
      ...(this.device ? [`device=${this.device}`] : []),
      ...(this.cookie ? [`sid=${this.cookie}`] : []),
    ];
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    const response = await this.app.inject({ ...options, headers });
    const setCookie = response.cookies.find((cookie) => cookie.name === 'sid');
    if (setCookie) this.cookie = setCookie.value === '' ? undefined : setCookie.value;
    const device = response.cookies.find((cookie) => cookie.name === 'device');
    if (device) this.device = device.value;
    return response;
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: unknown): Promise<LightMyRequestResponse> {
    return this.request({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  put(url: string, payload: unknown): Promise<LightMyRequestResponse> {
    return this.request({ method: 'PUT', url, payload: payload as object });
  }
}

let counter = 0;
export function uniqueUsername(prefix = 'player'): string {
  counter += 1;
  return `${prefix}_${process.pid % 1000}_${counter}`;
}

export function registration(overrides: Partial<RegisterBody> = {}): RegisterBody {
  return {
    username: uniqueUsername(),
    password: 'correct-horse',
    phoneNumber: '+1 555 010 2000',
    email: 'player@example.com',
    isOver18: true,
    ...overrides,
  };
}

/**
 * Registers a new player and returns a signed-in agent with the user's id: on a browser of its own,
 * or on the one whose device id is given.
 */
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<RegisterBody> = {},
  device?: string,
) {
  const agent = new Agent(app, device);
  const body = registration(overrides);
  const response = await agent.post('/api/register', body);
  if (response.statusCode !== 201)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  const user = response.json<{ id: number; username: string }>();
  return { agent, user, password: body.password };
}
