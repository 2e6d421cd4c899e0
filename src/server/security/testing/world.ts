import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { queryRows } from '#server/db/client.ts';
import { createAppContext } from '#server/context.ts';
import { licenseVerifications } from '#server/db/schema/license-verifications.ts';
import { tournaments } from '#server/db/schema/tournaments.ts';
import { hashPassword } from '#server/features/accounts/password.ts';
import { sessions } from '#server/db/schema/sessions.ts';
import { createSession, hashToken } from '#server/features/accounts/sessions.ts';
import { ensureAdmin } from '#server/features/accounts/admin-bootstrap.ts';
import { insertUser } from '#server/features/accounts/repository.ts';
import { fund } from '#tests/helpers/money.ts';
import { multipart, sampleFile } from '#tests/helpers/multipart.ts';
import { createTestApp, uniqueUsername, type TestApp } from '#tests/helpers/test-app.ts';
import { runTournamentPass } from '../../features/tournaments/worker.ts';

/**
 * Realistic fixtures for the security tests: real users with real sessions, and real resources
 * (challenges in every state, uploads, a licence review, a payout, deposits) owned by `player`,
 * so that a refusal is the permission check speaking and not a 404 for a made-up id.
 */
/**
 * Who calls: nobody, `player` (owns the resources), `opponent` (plays against them), `outsider`
 * (neither), `suspended` (an outsider an admin has suspended: reads and withdraws, but may not
 * deposit, create or accept), the admin, and a deleted account.
 */
export const ROLES = [
  'anonymous',
  'player',
  'opponent',
  'outsider',
  'suspended',
  'admin',
  'deleted',
] as const;
export type Role = (typeof ROLES)[number];

export interface Actor {
  id: number;
  username: string;
  password: string;
  /** The session token, as the `sid` cookie carries it. */
  token: string;
}

export const PASSWORD = 'matrix-password';
const SESSION_POLICY = { idleMs: 720 * 60_000, maxAgeMs: 30 * 86_400_000 };
let passwordHash: Promise<string> | undefined;

export const CHALLENGE_BODY = {
  game: 'Street Fighter 6',
  amount: 10,
  gamerTag: 'Ryu',
  phoneNumber: '+1 555 010 3000',
  console: 'PlayStation',
} as const;

export const TOURNAMENT_BODY = {
  game: 'Tekken 8',
  console: 'PlayStation',
  entryFee: 5,
  size: 4,
  allowByes: true,
} as const;

/** A start time an hour away: the tournament is open for entries. */
export const inAnHour = (): string => new Date(Date.now() + 3_600_000).toISOString();

export const PAYOUT_BODY = {
  amount: 5,
  paymentMethod: 'crypto',
  paymentDetails: 'BTC bc1qmatrixaddress0000000000000000000',
  phoneNumber: '+1 555 010 3000',
} as const;

async function voiceListeners(database: TestApp['database']): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    database.db,
    sql`select count(*)::int as count from pg_stat_activity
        where datname = current_database() and query like 'LISTEN "socket.io#%'`,
  );
  return Number(row?.count ?? 0);
}

/**
 * An app on a database the caller shares, ready to be closed at any moment. On PostgreSQL the
 * voice adapter (@socket.io/postgres-adapter) takes its LISTEN connection in the background, and
 * its close() misses a connection still being made: an app closed within milliseconds of its
 * start then waits for that connection forever. Wait until it listens.
 */
export async function createSettledTestApp(
  options: Parameters<typeof createTestApp>[0] & { database: TestApp['database'] },
): Promise<TestApp> {
  const pooled = options.database.pool !== undefined;
  const before = pooled ? await voiceListeners(options.database) : 0;
  const t = await createTestApp(options);
  const deadline = Date.now() + 20_000;
  while (pooled && (await voiceListeners(options.database)) <= before) {
    if (Date.now() > deadline) throw new Error('the voice adapter never started listening');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return t;
}

/** Inserts a user with a known password and opens a session for it, without the HTTP detour. */
export async function createActor(
  t: TestApp,
  prefix: string,
  fundCents = 0n,
  options: { admin?: boolean } = {},
): Promise<Actor> {
  passwordHash ??= hashPassword(PASSWORD);
  const username = uniqueUsername(prefix);
  const user = await insertUser(t.database.db, {
    username,
    passwordHash: await passwordHash,
    phoneNumber: '+1 555 010 3000',
    email: `${username}@example.com`,
    isOver18: true,
    isAdmin: options.admin ?? false,
  });
  if (!user) throw new Error(`could not create ${username}`);
  const { token } = await createSession(t.database.db, user.id, SESSION_POLICY, new Date());
  if (fundCents > 0n) await fund(t.database, user.id, fundCents);
  return { id: user.id, username, password: PASSWORD, token };
}

export async function createAdminActor(t: TestApp): Promise<Actor> {
  const username = uniqueUsername('matrix_admin');
  await ensureAdmin(t.database.db, t.bus, username, PASSWORD);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password: PASSWORD },
  });
  const token = response.cookies.find((cookie) => cookie.name === 'sid')?.value;
  if (response.statusCode !== 200 || !token) throw new Error(`admin login: ${response.body}`);
  const { id } = response.json<{ id: number }>();
  await fund(t.database, id, 100_000_000n);
  return { id, username, password: PASSWORD, token };
}

/** A player who had a session, then was deleted by an admin: the old cookie is all that's left. */
export async function createDeletedActor(t: TestApp, admin: Actor): Promise<Actor> {
  const actor = await createActor(t, 'matrix_gone', 5_000n);
  const response = await send(t, admin, { method: 'DELETE', url: `/api/admin/users/${actor.id}` });
  if (response.statusCode !== 200) throw new Error(`delete failed: ${response.body}`);
  return actor;
}

export function send(
  t: TestApp,
  actor: Actor | undefined,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const headers = { ...(options.headers ?? {}) };
  if (actor) headers.cookie = `sid=${actor.token}`;
  return t.app.inject({ ...options, headers });
}

function expectStatus(response: LightMyRequestResponse, status: number, what: string): void {
  if (response.statusCode !== status)
    throw new Error(`${what}: expected ${status}, got ${response.statusCode} ${response.body}`);
}

/** A session of its own for `shared`, or, without one, a fresh admin account. */
async function worldAdmin(t: TestApp, shared: Actor | undefined): Promise<Actor> {
  if (!shared) return createActor(t, 'matrix_a', 100_000_000n, { admin: true });
  const { token } = await createSession(t.database.db, shared.id, SESSION_POLICY, new Date());
  return { ...shared, token };
}

/** Memoises a lazily built fixture, so that each world builds only what its test touches. */
function once<T>(build: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= build());
}

export function screenshotUpload(): { payload: Buffer; headers: Record<string, string> } {
  return multipart('screenshot', 'result.png', 'image/png', sampleFile('png'));
}

export function licenseUpload(): { payload: Buffer; headers: Record<string, string> } {
  return multipart('driversLicense', 'licence.pdf', 'application/pdf', sampleFile('pdf'));
}

/**
 * Three funded players — `player` owns everything, `opponent` plays against them, `outsider`
 * has nothing to do with either — an admin, and the shared deleted account.
 */
export class World {
  private constructor(
    readonly t: TestApp,
    readonly actors: Record<Role, Actor | undefined>,
  ) {}

  /**
   * `shared.admin` makes the world's admin a session of that account instead of an account of
   * its own (the two-factor test needs one admin whose secret it set).
   */
  static async create(t: TestApp, shared: { deleted: Actor; admin?: Actor }): Promise<World> {
    const [player, opponent, outsider, suspended, admin] = await Promise.all([
      createActor(t, 'matrix_p', 1_000_000n),
      createActor(t, 'matrix_o', 1_000_000n),
      createActor(t, 'matrix_n', 1_000_000n),
      createActor(t, 'matrix_s', 1_000_000n),
      // An admin of its own: what one world's admin does to its own account (a logout, a new
      // password, signing out every other device) must not shut the admin of the next out.
      worldAdmin(t, shared.admin),
    ]);
    expectStatus(
      await send(t, admin, {
        method: 'POST',
        url: `/api/admin/users/${suspended.id}/suspend`,
        payload: { reason: 'Matrix suspension' },
      }),
      200,
      'suspend the suspended actor',
    );
    return new World(t, {
      anonymous: undefined,
      player,
      opponent,
      outsider,
      suspended,
      admin,
      deleted: shared.deleted,
    });
  }

  actor(role: Exclude<Role, 'anonymous'>): Actor {
    const actor = this.actors[role];
    if (!actor) throw new Error(`no ${role}`);
    return actor;
  }

  send(role: Role, options: InjectOptions): Promise<LightMyRequestResponse> {
    return send(this.t, this.actors[role], options);
  }

  /** The id the devices list gives the session of `role`'s cookie. */
  async sessionId(role: Exclude<Role, 'anonymous'>): Promise<number> {
    const [row] = await this.t.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(this.actor(role).token)));
    if (!row) throw new Error(`${role} has no session`);
    return row.id;
  }

  private async newChallenge(): Promise<number> {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/challenges',
      payload: CHALLENGE_BODY,
    });
    expectStatus(response, 201, 'create challenge');
    return response.json<{ id: number }>().id;
  }

  private async newAcceptedChallenge(): Promise<number> {
    const id = await this.newChallenge();
    expectStatus(
      await this.send('opponent', { method: 'POST', url: `/api/challenges/${id}/accept` }),
      200,
      'accept challenge',
    );
    return id;
  }

  private async submitted(disputeReason?: string): Promise<number> {
    const id = await this.newAcceptedChallenge();
    const response = await this.send('player', {
      method: 'POST',
      url: `/api/challenges/${id}/submit`,
      payload: {
        creatorScore: 3,
        acceptorScore: 1,
        screenshot: 'https://example.com/result.png',
        ...(disputeReason ? { disputeReason } : {}),
      },
    });
    expectStatus(response, 200, 'submit scores');
    return id;
  }

  /**
   * `player`'s direct challenge to `opponent` (docs/challenges.md#finding-an-opponent): nobody else
   * may see it.
   */
  readonly directChallenge = once(async () => {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/challenges',
      payload: { ...CHALLENGE_BODY, opponent: this.actor('opponent').username },
    });
    expectStatus(response, 201, 'create direct challenge');
    return response.json<{ id: number }>().id;
  });

  readonly openChallenge = once(() => this.newChallenge());
  readonly acceptedChallenge = once(() => this.newAcceptedChallenge());
  /** Submitted by `player` and settled: `opponent` may dispute it. */
  readonly completedChallenge = once(() => this.submitted());
  readonly disputedChallenge = once(() => this.submitted('The score was entered wrong'));

  /** A screenshot `player` uploaded to the accepted challenge. */
  readonly screenshot = once(async () => {
    const id = await this.acceptedChallenge();
    const upload = screenshotUpload();
    const response = await this.send('player', {
      method: 'POST',
      url: `/api/challenges/${id}/upload-screenshot`,
      ...upload,
    });
    expectStatus(response, 201, 'upload screenshot');
    return response.json<{ id: string }>().id;
  });

  private async newTournament(): Promise<number> {
    const response = await this.send('admin', {
      method: 'POST',
      url: '/api/admin/tournaments',
      payload: { ...TOURNAMENT_BODY, startsAt: inAnHour() },
    });
    expectStatus(response, 201, 'create tournament');
    return response.json<{ id: number }>().id;
  }

  private async join(role: Role, id: number): Promise<void> {
    expectStatus(
      await this.send(role, { method: 'POST', url: `/api/tournaments/${id}/join` }),
      200,
      `${role} joins the tournament`,
    );
  }

  /**
   * A tournament of `player` and `opponent` alone (byes allowed), started by the worker: its one
   * match, the final, between them.
   */
  private async newLiveMatch(): Promise<{ id: number; matchId: number }> {
    const id = await this.newTournament();
    await this.join('player', id);
    await this.join('opponent', id);
    await this.t.database.db
      .update(tournaments)
      .set({ startsAt: new Date(Date.now() - 1000) })
      .where(eq(tournaments.id, id));
    const { env, database, bus } = this.t;
    await runTournamentPass(createAppContext({ env, database, bus }));
    const response = await this.send('player', { method: 'GET', url: `/api/tournaments/${id}` });
    const [match] = response.json<{ matches: Array<{ id: number }> }>().matches;
    if (!match) throw new Error('the tournament did not start');
    return { id, matchId: match.id };
  }

  /** An open tournament the admin created (docs/tournaments.md). */
  readonly openTournament = once(() => this.newTournament());

  /** An open tournament with `player` entered. */
  readonly enteredTournament = once(async () => {
    const id = await this.newTournament();
    await this.join('player', id);
    return id;
  });

  readonly liveMatch = once(() => this.newLiveMatch());

  private async reportedMatch(disputeReason?: string) {
    const { id, matchId } = await this.newLiveMatch();
    const response = await this.send('player', {
      method: 'POST',
      url: `/api/tournaments/${id}/matches/${matchId}/submit`,
      payload: {
        creatorScore: 3,
        acceptorScore: 1,
        screenshot: 'https://example.com/result.png',
        ...(disputeReason ? { disputeReason } : {}),
      },
    });
    expectStatus(response, 200, 'report tournament match');
    return { id, matchId };
  }

  /** The tournament match's result, reported by `player` and under review. */
  readonly reportedTournamentMatch = once(() => this.reportedMatch());
  readonly disputedTournamentMatch = once(() => this.reportedMatch('They left mid-game'));

  /** A picture `player` added as evidence to a disputed tournament match of theirs. */
  readonly tournamentEvidenceFile = once(async () => {
    const { id, matchId } = await this.reportedMatch('They quit before the end');
    const response = await this.send('player', {
      method: 'POST',
      url: `/api/tournaments/${id}/matches/${matchId}/evidence`,
      ...multipart('file', 'final.png', 'image/png', sampleFile('png')),
    });
    expectStatus(response, 201, 'add tournament evidence');
    const evidence = response.json<{ file: { url: string } | null }>();
    const uploadId = evidence.file?.url.split('/').at(-1);
    if (!uploadId) throw new Error('the evidence has no file');
    return uploadId;
  });

  /** `player`'s driver's licence, waiting for review. */
  readonly license = once(async () => {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/user/upload-license',
      ...licenseUpload(),
    });
    expectStatus(response, 201, 'upload licence');
    const [verification] = await this.t.database.db
      .select()
      .from(licenseVerifications)
      .where(eq(licenseVerifications.userId, this.actor('player').id));
    if (!verification) throw new Error('no verification row');
    return { uploadId: verification.uploadId, verificationId: verification.id };
  });

  /** `outsider`, suspended by the admin until further notice. */
  readonly suspendedOutsider = once(async () => {
    const id = this.actor('outsider').id;
    const response = await this.send('admin', {
      method: 'POST',
      url: `/api/admin/users/${id}/suspend`,
      payload: { reason: 'Matrix suspension' },
    });
    expectStatus(response, 200, 'suspend outsider');
    return id;
  });

  /** `player`'s report about `opponent`, waiting in the admins' queue. */
  readonly report = once(async () => {
    const response = await this.send('player', {
      method: 'POST',
      url: `/api/players/${this.actor('opponent').username}/report`,
      payload: { reason: 'Quit every match when losing' },
    });
    expectStatus(response, 201, 'report player');
    return response.json<{ id: number }>().id;
  });

  /** `player`'s payout to a coin address, waiting for review: its ID is not approved. */
  readonly sendablePayout = once(async () => {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/payouts',
      payload: {
        amount: 2,
        paymentMethod: 'crypto',
        phoneNumber: '+1 555 010 9999',
        currency: 'usdttrc20',
        address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      },
    });
    expectStatus(response, 201, 'request payout to an address');
    return response.json<{ payout: { id: number } }>().payout.id;
  });

  /** `player`'s pending payout request. */
  readonly payout = once(async () => {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/payouts',
      payload: PAYOUT_BODY,
    });
    expectStatus(response, 201, 'request payout');
    return response.json<{ payout: { id: number } }>().payout.id;
  });

  private async newCardIntent(): Promise<{ clientSecret: string; paymentIntentId: string }> {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: { amount: 20 },
    });
    expectStatus(response, 200, 'create payment intent');
    return response.json();
  }

  /** A card deposit `player` started but has not paid. */
  readonly unpaidCardIntent = once(() => this.newCardIntent());

  /** A card deposit `player` paid with the sandbox's test card (and that was credited). */
  readonly paidCardIntent = once(async () => {
    const intent = await this.newCardIntent();
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/sandbox/card/confirm',
      payload: { clientSecret: intent.clientSecret, cardNumber: SANDBOX_TEST_CARDS.success },
    });
    expectStatus(response, 200, 'pay intent');
    return intent.paymentIntentId;
  });

  /** A sandbox crypto deposit of `player`, waiting for the coins. */
  readonly cryptoPayment = once(async () => {
    const response = await this.send('player', {
      method: 'POST',
      url: '/api/create-crypto-payment',
      payload: { amount: 20 },
    });
    expectStatus(response, 200, 'create crypto payment');
    return response.json<{ paymentId: string }>().paymentId;
  });
}
