import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_SORTS, type ChallengeFilters } from '#shared/contracts/challenges.ts';
import { listAuditEntries } from '#server/features/audit/audit-log.ts';
import {
  createSession,
  findSessionUser,
  revokeUserSessions,
} from '#server/features/accounts/sessions.ts';
import { deviceLinksOf, linkedAccountsOf } from '#server/features/accounts/device-links.ts';
import { deleteSessions, listSessions } from '#server/features/accounts/devices.ts';
import { listUsersWithBalances } from '#server/features/admin/repository.ts';
import {
  countChallenges,
  findChallengeRow,
  listChallengeRows,
  findChallenge,
  findChallengeWithPlayers,
  lockChallenge,
} from '#server/features/challenges/repository.ts';
import { acceptChallenge, createChallenge } from '#server/features/challenges/service.ts';
import { listEvidence } from '#server/features/challenges/evidence.ts';
import { runFairPlayPass } from '#server/features/challenges/review.ts';
import { listTaxReport, taxYear } from '#server/features/insights/tax-report.ts';
import { moneyHeldFor } from '#server/procedures/account-closing/close-own-account.ts';
import { collectAccountData } from '#server/procedures/data-export/data-export.ts';
import { EXTERNAL_CARD, userWallet } from '#server/features/ledger/accounts.ts';
import { getUserBalanceCents, getUserBalances } from '#server/features/ledger/balances.ts';
import {
  countUnread,
  listNotifications,
  markRead,
} from '#server/features/notifications/repository.ts';
import { createLedger } from '#server/features/ledger/ledger.ts';
import { deliverDueMail } from '#server/features/mail/worker.ts';
import {
  findPayment,
  findUserPayment,
  listPaymentsForAdmin,
  lockPayment,
} from '#server/features/payments/repository.ts';
import { claimDuePayments } from '#server/features/payments/reconcile.ts';
import {
  findPayoutWithOwner,
  listOwnPayouts,
  listPayoutsWithOwners,
  lockPayout,
  lockPendingPayoutsOf,
} from '#server/features/payouts/repository.ts';
import {
  findLatestVerification,
  findVerification,
  listVerifications,
} from '#server/features/accounts/id-verification.ts';
import {
  findGameName,
  findPlayerGames,
  findPlayerResults,
  listLeaderboard,
  periodStart,
  suggestGames,
} from '#server/features/players/repository.ts';
import { findReport, listReports } from '#server/features/reports/reports.ts';
import {
  findUserById,
  findUserByUsername,
  suggestOpponents,
} from '#server/features/accounts/repository.ts';
import { listWalletMovements } from '#server/features/ledger/transactions.ts';
import { parseEnv } from '#server/env.ts';
import { createAppContext } from '#server/context.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';
import { hitRateLimit, resetRateLimit } from '#server/lib/rate-limiter.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { seqScansOf } from '#tests/helpers/query-plans.ts';
import type { Database, DatabaseHandle } from './client.ts';
import * as schema from './schema/index.ts';
import { inTransaction } from './transaction.ts';
import {
  escrowBalances,
  reviewBalances,
  findUnreversedSettlement,
  lockWalletBalance,
} from '../features/ledger/queries.ts';
import { lockActiveChallengesOf, lockOpenChallengesOf } from '../features/challenges/repository.ts';
import { submitScores } from '../features/challenges/results.ts';

/**
 * Every list and lookup path reads through an index (issue 8). The tables are filled with
 * 100,000 rows each (generate_series, then ANALYZE so the planner knows), the real repository
 * functions run against them, and the plan of every statement they execute, down to those inside
 * the database's own functions, must contain no sequential scan (`seqScansOf`).
 *
 * PostgreSQL only: PGlite's planner is PostgreSQL's, but the question is what production plans.
 */
const ROWS = 100_000;

// Realistic shapes: most challenges are finished, a few open; most mail is sent; most payouts
// and payments are decided. A list "of the open ones" is then a small slice, as in production.
const FILL = [
  `insert into users (username, password_hash, email, phone_number)
     select 'player_' || g, 'x', 'player_' || g || '@example.com', '555' || g
     from generate_series(1, ${ROWS}) g`,
  `insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at)
     select md5('s' || g), g, now(), now(), now() + interval '30 days'
     from generate_series(1, ${ROWS}) g`,
  // Each account on a device of its own, one in a thousand sharing its neighbour's.
  `insert into device_sign_ins (user_id, device_hash, first_signed_in_at, last_signed_in_at,
       user_agent, ip_address)
     select g, md5('d' || case when g % 1000 = 0 then g - 1 else g end), now(), now(),
       'Mozilla/5.0 Chrome/131.0.0.0', '10.0.0.1'
     from generate_series(1, ${ROWS}) g`,
  `insert into cleared_account_links (low_user_id, high_user_id, note, cleared_at)
     select g - 1, g, 'brothers', now() from generate_series(4, ${ROWS}, 4) g`,
  `insert into challenges (creator_id, acceptor_id, winner_id, amount_cents, game, gamer_tag,
       phone_number, console, status, creator_score, acceptor_score, prize_cents, fee_cents,
       completed_at)
     select g, case when g % 10 = 0 then null else (g % ${ROWS}) + 1 end,
       case when g % 10 in (0, 1) then null else g end,
       500, 'Chess', 'tag', '555', 'PC',
       case g % 10 when 0 then 'open' when 1 then 'accepted' when 2 then 'disputed'
         when 3 then 'cancelled' else 'completed' end,
       case when g % 10 > 1 then 3 end, case when g % 10 > 1 then 1 end,
       case when g % 10 > 1 then 1000 end, case when g % 10 > 3 then 50 end,
       case when g % 10 > 1 then now() end
     from generate_series(1, ${ROWS}) g`,
  // Results reported under review (docs/fair-play.md): nearly all released long ago, a few still
  // held.
  `update challenges set review_ends_at = completed_at + interval '1 day',
       released_at = case when id % 1000 = 4 then null else now() end,
       release_cause = case when id % 1000 = 4 then null else 'confirmed' end
     where status = 'completed'`,
  // The leaderboards (docs/challenges.md#finding-an-opponent): every player has a row per period,
  // overall and for Chess.
  `insert into leaderboard_entries (period, period_start, game_key, user_id, played, wins,
       net_cents)
     select p.period, p.period_start, k.game_key, g, 1 + g % 7, g % 5, (g % 41 - 20) * 100
     from generate_series(1, ${ROWS}) g,
       (values ('all', date '1970-01-01'), ('month', date_trunc('month', now())::date),
         ('week', date_trunc('week', now())::date)) p(period, period_start),
       (values (''), ('chess')) k(game_key)`,
  `insert into games (key, name, challenges)
     select 'game ' || g, 'Game ' || g, g % 500 from generate_series(1, ${ROWS} / 10) g`,
  `insert into notifications (user_id, kind, challenge_id, title, body, dedupe_key, read_at)
     select (g % ${ROWS}) + 1, 'result_reported', g, 'Title', 'Body', 'seed:' || g,
       case when g % 20 = 0 then null else now() end
     from generate_series(1, ${ROWS}) g`,
  `insert into challenge_evidence (challenge_id, user_id, statement)
     select g, g, 'Statement' from generate_series(1, ${ROWS}) g`,
  `insert into ledger_accounts (key, kind, user_id, allow_negative, balance_cents)
     select 'user:' || g, 'user', g, false, 10000 from generate_series(1, ${ROWS}) g
     union all
     select 'escrow:challenge:' || g, 'escrow', null, false, 0 from generate_series(1, ${ROWS}) g
     union all
     select 'review:challenge:' || g, 'review', g, false,
       case when g % 1000 = 4 then 950 else 0 end from generate_series(1, ${ROWS}) g
     union all
     select 'external:card', 'external', null, true, -${ROWS}::bigint * 10000`,
  `insert into ledger_transfers (idempotency_key, kind, reference_type, reference_id, payload_hash)
     select 'seed:' || g, 'deposit', 'challenge', g::text, 'h' from generate_series(1, ${ROWS}) g`,
  `insert into ledger_postings (transfer_id, account_id, amount_cents, balance_after_cents)
     select t.id, a.id, 10000, 10000
       from ledger_transfers t join ledger_accounts a on a.key = 'user:' || t.reference_id
     union all
     select t.id, (select id from ledger_accounts where key = 'external:card'), -10000, 0
       from ledger_transfers t`,
  `insert into outbox (dedupe_key, recipient, subject, body, sent_at, next_attempt_at)
     select 'mail:' || g, 'player_' || g || '@example.com', 'Subject', 'Body',
       case when g % 1000 = 0 then null else now() end, now() - interval '1 minute'
     from generate_series(1, ${ROWS}) g`,
  `insert into rate_limit_hits (bucket, window_start, hits)
     select 'login:ip:10.0.' || (g / 250) || '.' || (g % 250), date_trunc('minute', now()), 1
     from generate_series(1, ${ROWS}) g`,
  `insert into payouts (user_id, amount_cents, status, stage, payment_method, payment_details,
       phone_number, failure_reason, decided_by, decided_at, completed_at)
     select g, 100, case when g % 50 = 0 then 'pending' else 'completed' end,
       case when g % 50 = 0 then 'review' else 'completed' end, 'paypal', 'p@x',
       '555', null, case when g % 50 = 0 then null else 1 end,
       case when g % 50 = 0 then null else now() end, case when g % 50 = 0 then null else now() end
     from generate_series(1, ${ROWS}) g`,
  `insert into payments (provider, method, provider_payment_id, user_id, requested_amount_cents,
       credited_amount_cents, currency, status, provider_status, ledger_transfer_id)
     select 'sandbox-card', 'card', 'pi_' || g, g, 10000,
       case when g % 50 = 0 then null else 10000 end, 'usd',
       case when g % 50 = 0 then 'pending' else 'credited' end, 'succeeded',
       case when g % 50 = 0 then null else g end
     from generate_series(1, ${ROWS}) g`,
  `insert into uploads (id, owner_id, challenge_id, purpose, storage_key, content_type, size_bytes)
     select md5('u' || g)::uuid, g, case when g % 2 = 0 then g end,
       case when g % 2 = 0 then 'screenshot' else 'license' end, 'k' || g, 'image/png', 100
     from generate_series(1, ${ROWS}) g`,
  `insert into license_verifications (user_id, upload_id, status, reviewed_by, reviewed_at)
     select g, md5('u' || g)::uuid, case when g % 100 = 0 then 'pending' else 'approved' end,
       case when g % 100 = 0 then null else 1 end, case when g % 100 = 0 then null else now() end
     from generate_series(1, ${ROWS}) g`,
  `insert into audit_log (actor_user_id, action, target_type, target_id, details)
     select 1, 'payout.complete', 'payout', g::text, '{}'::jsonb from generate_series(1, ${ROWS}) g`,
  `insert into player_reports (reporter_id, reported_user_id, reason, status, created_at)
     select g, (g % ${ROWS}) + 1, 'Cheating', case when g % 2000 = 0 then 'open' else 'dismissed' end,
       now() - (g || ' seconds')::interval
     from generate_series(1, ${ROWS}) g`,
  // Tournaments of four (docs/tournaments.md): nearly all finished, a few open or live; each player
  // holds one entry, and each tournament its three matches.
  `insert into tournaments (game, console, entry_fee_cents, size, starts_at, prize_split, status,
       created_by)
     select 'Chess', 'PC', 300, 4, now(), '{70,30}',
       case g % 100 when 0 then 'open' when 1 then 'live' else 'finished' end, 1
     from generate_series(1, ${ROWS} / 4) g`,
  `insert into tournament_entries (tournament_id, user_id)
     select (g - 1) / 4 + 1, g from generate_series(1, ${ROWS}) g`,
  `insert into tournament_matches (tournament_id, round, slot, player_a_id, player_b_id, status,
       winner_id)
     select t, r, s, (t - 1) * 4 + 1 + s * 2, (t - 1) * 4 + 2 + s * 2, 'done',
       (t - 1) * 4 + 1 + s * 2
     from generate_series(1, ${ROWS} / 4) t, (values (1, 0), (1, 1), (2, 0)) m(r, s)`,
  `analyze`,
];

let database: DatabaseHandle;
let pool: pg.Pool;

/** Each subset of the filter bar's four fields, as the bar sends them. */
const LOBBY_FILTERS: Array<[string, ChallengeFilters]> = (() => {
  const fields: Array<[string, ChallengeFilters]> = [
    ['game', { game: 'che' }],
    ['console', { console: 'Xbox' }],
    ['from $5', { minAmount: 500n }],
    ['to $20', { maxAmount: 2_000n }],
  ];
  return Array.from({ length: 2 ** fields.length }, (_, mask) => {
    const chosen = fields.filter((_field, bit) => mask & (1 << bit));
    return [
      chosen.map(([name]) => name).join(' + ') || 'no filter',
      Object.assign({}, ...chosen.map(([, filters]) => filters)) as ChallengeFilters,
    ];
  });
})();

describe.runIf(onPostgres)('every list and lookup path uses an index (100,000 rows)', () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    if (!database.pool) throw new Error('expected PostgreSQL');
    pool = database.pool;
    for (const statement of FILL) await pool.query(statement);
  }, 300_000);
  afterAll(async () => {
    await database?.close();
  });

  const viewer = 4_242;
  const now = new Date();
  const shapes: Array<[string, (db: Database) => Promise<unknown>]> = [
    // Challenges: the home tabs, the profile's lists, paging, the detail page, the counts.
    [
      'open challenges, first page',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          status: ['open'],
          limit: 50,
          withBalances: false,
        }),
    ],
    [
      'open challenges, first page, as an admin sees them (with balances)',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          status: ['open'],
          limit: 50,
          withBalances: true,
        }),
    ],
    [
      'open challenges, next page',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          status: ['open'],
          limit: 50,
          before: 50_000,
          withBalances: false,
        }),
    ],
    [
      'all challenges, newest first',
      (db) =>
        listChallengeRows(db, { viewerId: viewer, limit: 50, before: 90_000, withBalances: false }),
    ],
    [
      'challenges created by the viewer',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          role: 'created',
          limit: 50,
          withBalances: false,
        }),
    ],
    [
      'challenges accepted by the viewer',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          role: 'accepted',
          limit: 50,
          withBalances: false,
        }),
    ],
    [
      'the viewer’s active challenges',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          role: 'mine',
          status: ['accepted'],
          limit: 50,
          withBalances: false,
        }),
    ],
    [
      'the viewer’s finished challenges, next page',
      (db) =>
        listChallengeRows(db, {
          viewerId: viewer,
          role: 'mine',
          status: ['completed', 'disputed'],
          withBalances: false,
          limit: 50,
          before: 4_242,
        }),
    ],
    // The lobby's filters (docs/challenges.md#finding-an-opponent): every combination the filter
    // bar can send, on each tab.
    ...LOBBY_FILTERS.flatMap(([filterName, filters]) =>
      CHALLENGE_SORTS.flatMap((sort): Array<[string, (db: Database) => Promise<unknown>]> => [
        [
          `open challenges, ${filterName}, ${sort}`,
          (db) =>
            listChallengeRows(db, {
              viewerId: viewer,
              status: ['open'],
              limit: 24,
              sort,
              ...filters,
              withBalances: false,
            }),
        ],
        [
          `open challenges, ${filterName}, ${sort}, next page`,
          (db) =>
            listChallengeRows(db, {
              viewerId: viewer,
              status: ['open'],
              limit: 24,
              before: 50_000,
              sort,
              ...filters,
              withBalances: false,
            }),
        ],
        [
          `the viewer’s finished challenges, ${filterName}, ${sort}`,
          (db) =>
            listChallengeRows(db, {
              viewerId: viewer,
              role: 'mine',
              status: ['completed', 'disputed'],
              limit: 24,
              sort,
              ...filters,
              withBalances: false,
            }),
        ],
      ]),
    ),
    ...LOBBY_FILTERS.map(([filterName, filters]): [string, (db: Database) => Promise<unknown>] => [
      `challenge counts, ${filterName}`,
      (db) => countChallenges(db, viewer, filters),
    ]),
    ['challenge by id', (db) => findChallengeRow(db, 77_777)],
    ['challenge with its players', (db) => findChallengeWithPlayers(db, 77_777)],
    ['challenge row by id', (db) => findChallenge(db, 77_777)],
    ['challenge locked by id', (db) => inTransaction(db, ({ tx }) => lockChallenge(tx, 77_777))],
    ['challenge counts', (db) => countChallenges(db, viewer)],
    // Player pages, leaderboards, game suggestions (docs/challenges.md#finding-an-opponent).
    ['a player’s last results', (db) => findPlayerResults(db, viewer)],
    ['a player’s games played most', (db) => findPlayerGames(db, viewer)],
    ...(['week', 'month', 'all'] as const).flatMap((period) =>
      (['', 'chess'] as const).flatMap((key) =>
        (['net', 'wins'] as const).map((by): [string, (db: Database) => Promise<unknown>] => [
          `leaderboard, ${period}, ${key || 'all games'}, by ${by}`,
          (db) =>
            listLeaderboard(db, { period, start: periodStart(period, now), gameKey: key }, by),
        ]),
      ),
    ),
    ['a game’s name by key', (db) => findGameName(db, 'game 77')],
    ['game suggestions, most named', (db) => suggestGames(db, undefined)],
    ['game suggestions containing a search', (db) => suggestGames(db, 'ame 12')],
    [
      'a settled result counted on the leaderboards (trigger)',
      (db) =>
        db.execute(
          sql`update challenges set status = 'completed', winner_id = creator_id,
                completed_at = now()
              where id = 77771`,
        ),
    ],
    // Sessions and users.
    [
      'session by token hash',
      async (db) => {
        const { token } = await createSession(
          db,
          viewer,
          { idleMs: 3_600_000, maxAgeMs: 86_400_000 },
          now,
        );
        return findSessionUser(db, token, { idleMs: 3_600_000, maxAgeMs: 86_400_000 }, now);
      },
    ],
    ['sessions of a user revoked', (db) => revokeUserSessions(db, 99_999)],
    ['the accounts a player may not play', (db) => linkedAccountsOf(db, 31_000, 30, now)],
    ['the device links on a player page', (db) => deviceLinksOf(db, 31_000, 30, now)],
    ['a device signed out', (db) => deleteSessions(db, 99_998, { only: 99_998 })],
    [
      'a player’s devices',
      (db) => listSessions(db, 99_997, null, { idleMs: 3_600_000, maxAgeMs: 86_400_000 }, now),
    ],
    ['user by username', (db) => findUserByUsername(db, 'Player_31337')],
    ['user by id', (db) => findUserById(db, 31_337)],
    ['users with balances, a page', (db) => listUsersWithBalances(db, { limit: 50, offset: 500 })],
    // Ledger.
    ['wallet balance by account key', (db) => getUserBalanceCents(db, viewer)],
    [
      'wallet locked by account key',
      (db) => inTransaction(db, ({ tx }) => lockWalletBalance(tx, viewer)),
    ],
    ['escrow balances by account keys', (db) => escrowBalances(db, [10, 20, 30])],
    [
      'wallet movements (postings by account)',
      (db) => listWalletMovements(db, viewer, { limit: 50 }),
    ],
    [
      'wallet movements, next page',
      (db) => listWalletMovements(db, viewer, { limit: 50, beforePostingId: 150_000n }),
    ],
    [
      'a challenge’s settlement (transfers by reference)',
      (db) => findUnreversedSettlement(db, 12_345),
    ],
    [
      'a year’s tax report (the prizes credited that year, by time)',
      (db) => listTaxReport(db, taxYear(2026), 200_000n),
    ],
    [
      'a transfer posted (idempotency key, accounts, postings, balances)',
      (db) =>
        inTransaction(db, (uow) =>
          createLedger(createLocalBus()).post(uow, {
            idempotencyKey: 'index-test:1',
            kind: 'deposit',
            entries: [
              { account: EXTERNAL_CARD, direction: 'debit', amountCents: 100n },
              { account: userWallet(viewer), direction: 'credit', amountCents: 100n },
            ],
          }),
        ),
    ],
    [
      'a transfer replayed (by idempotency key)',
      (db) =>
        inTransaction(db, (uow) =>
          createLedger(createLocalBus())
            .post(uow, {
              idempotencyKey: 'seed:77',
              kind: 'deposit',
              entries: [
                { account: EXTERNAL_CARD, direction: 'debit', amountCents: 10_000n },
                { account: userWallet(77), direction: 'credit', amountCents: 10_000n },
              ],
            })
            .catch(() => undefined),
        ),
    ],
    [
      'a challenge created, accepted and settled: one call each, with the stakes and prize',
      async (db) => {
        const ctx = createAppContext({
          env: parseEnv({ LOG_LEVEL: 'silent' }),
          database: { ...database, db },
          bus: createLocalBus(),
        });
        const id = await createChallenge(ctx, viewer, {
          game: 'Chess',
          amount: 5,
          gamerTag: 'tag',
          phoneNumber: '5550100000',
          console: 'PC',
        });
        await acceptChallenge(ctx, id, 31_337);
        await submitScores(ctx, id, viewer, {
          creatorScore: 3,
          acceptorScore: 1,
          screenshot: 'https://example.com/result.png',
        });
      },
    ],
    // Finding an opponent (docs/challenges.md#finding-an-opponent).
    [
      'opponent suggestions by first letters',
      (db) => suggestOpponents(db, viewer, 'player_4242', now),
    ],
    // Workers and throttling.
    [
      'due mail claimed and marked sent',
      (db) =>
        deliverDueMail(db, { send: async () => {} }, now, { info: () => {}, error: () => {} }),
    ],
    [
      'rate limit bucket hit',
      (db) => hitRateLimit(db, { name: 'login:ip', limit: 10, windowMs: 60_000 }, '10.0.3.3', now),
    ],
    [
      'rate limit bucket reset',
      (db) =>
        resetRateLimit(db, { name: 'login:ip', limit: 10, windowMs: 60_000 }, '10.0.3.3', now),
    ],
    // Payouts and payments.
    ['payouts of a user', (db) => listOwnPayouts(db, viewer, { limit: 50 })],
    [
      'pending payouts, admin queue',
      (db) => listPayoutsWithOwners(db, { status: 'pending', limit: 50 }),
    ],
    ['payouts, admin, next page', (db) => listPayoutsWithOwners(db, { limit: 50, before: 60_000 })],
    ['payout by id', (db) => findPayoutWithOwner(db, 600)],
    ['payout locked by id', (db) => inTransaction(db, ({ tx }) => lockPayout(tx, 600))],
    [
      'pending payouts of a user, locked',
      (db) => inTransaction(db, ({ tx }) => lockPendingPayoutsOf(tx, 600)),
    ],
    ['payment by provider id', (db) => findPayment(db, 'sandbox-card', 'pi_4242')],
    [
      'payment of a user by provider id',
      (db) => findUserPayment(db, viewer, 'sandbox-card', 'pi_4242'),
    ],
    [
      'payment locked by provider id',
      (db) => inTransaction(db, ({ tx }) => lockPayment(tx, 'sandbox-card', 'pi_4242')),
    ],
    [
      'due pending payments claimed for reconciliation',
      (db) =>
        claimDuePayments(db, ['sandbox-card', 'sandbox-crypto'], new Date(now.getTime() + 180_000)),
    ],
    [
      'payments waiting for an admin',
      (db) => listPaymentsForAdmin(db, { statuses: ['pending', 'partially_paid'], limit: 50 }),
    ],
    // Files, verifications, audit.
    [
      'upload by id',
      (db) =>
        db
          .select()
          .from(schema.uploads)
          .where(eq(schema.uploads.id, 'a0b1c2d3-0000-4000-8000-000000000000'))
          .limit(1),
    ],
    ['a user’s latest licence verification', (db) => findLatestVerification(db, viewer)],
    [
      'pending licence verifications',
      (db) => listVerifications(db, { status: 'pending', limit: 50 }),
    ],
    ['licence verification by id', (db) => findVerification(db, 5_000)],
    [
      'audit entries of a target',
      (db) =>
        listAuditEntries(db, {
          limit: 1,
          action: 'payout.complete',
          targetType: 'payout',
          targetId: '777',
        }),
    ],
    // Fair play (docs/fair-play.md).
    ['a player’s available and under-review balances', (db) => getUserBalances(db, viewer)],
    [
      'due reviews released, reviews ending reminded, matches out of time refunded',
      (db) =>
        runFairPlayPass(
          createAppContext({
            env: parseEnv({ LOG_LEVEL: 'silent' }),
            database: { ...database, db },
            bus: createLocalBus(),
          }),
          2,
        ),
    ],
    ['a player’s notifications', (db) => listNotifications(db, viewer, { limit: 20 })],
    ['a player’s unread notifications counted', (db) => countUnread(db, viewer)],
    ['a player’s notifications marked read', (db) => markRead(db, viewer, { all: true }, now)],
    [
      'a challenge’s evidence',
      (db) =>
        listEvidence(
          createAppContext({
            env: parseEnv({ LOG_LEVEL: 'silent' }),
            database: { ...database, db },
            bus: createLocalBus(),
          }),
          5_000,
        ),
    ],
    ['held credits of disputes, admin queue', (db) => reviewBalances(db, [2, 12, 22])],
    [
      'lock a deleted user’s active challenges',
      (db) => inTransaction(db, ({ tx }) => lockActiveChallengesOf(tx, viewer)),
    ],
    [
      'where a player’s money is held, before they close their account',
      (db) => moneyHeldFor(db, viewer),
    ],
    [
      'a player’s data export (profile, challenges, wallet, payments, payouts, notifications)',
      async (db) => {
        const user = await findUserById(db, viewer);
        if (!user) throw new Error('no viewer');
        return collectAccountData(db, user, now);
      },
    ],
    [
      'lock a suspended user’s open challenges',
      (db) => inTransaction(db, ({ tx }) => lockOpenChallengesOf(tx, viewer)),
    ],
    // Player reports.
    ['reports queue, first page (open ones)', (db) => listReports(db, { limit: 50, offset: 0 })],
    ['reports queue, past the open ones', (db) => listReports(db, { limit: 50, offset: 1_000 })],
    ['report by id', (db) => findReport(db, 5_000)],
  ];

  it.each(shapes)('%s', async (_name, work) => {
    expect(await seqScansOf(pool, work)).toEqual([]);
  });
});
