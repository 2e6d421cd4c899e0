import type { InjectOptions } from 'fastify';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { multipartForm } from '#tests/helpers/multipart.ts';
import { registration } from '#tests/helpers/test-app.ts';
import {
  CHALLENGE_BODY,
  licenseUpload,
  PASSWORD,
  inAnHour,
  PAYOUT_BODY,
  screenshotUpload,
  TOURNAMENT_BODY,
  type Role,
  type World,
} from './world.ts';

/**
 * The permission matrix's specification (issue 9): for every route of the server, a realistic
 * request (real ids of resources `player` owns) and the status each role must get. The bad-input
 * test reuses the first request of each route as its valid starting point.
 */
export type Statuses = Record<Role, number>;

export interface RouteCase {
  /** What the request targets, when a route has several interesting targets. */
  target?: string;
  request: (world: World) => Promise<InjectOptions> | InjectOptions;
  expect: Statuses;
}

const everyone = (status: number): Statuses => ({
  anonymous: status,
  player: status,
  opponent: status,
  outsider: status,
  suspended: status,
  admin: status,
  deleted: status,
});

/** Any signed-in, not deleted, account. */
const signedIn = (status: number): Statuses => ({
  ...everyone(status),
  anonymous: 401,
  deleted: 401,
});

const adminOnly = (status: number): Statuses => ({
  anonymous: 401,
  player: 403,
  opponent: 403,
  outsider: 403,
  suspended: 403,
  admin: status,
  deleted: 401,
});

/** `player` owns the target; everyone else signed in is told it does not exist. */
const ownerOnly = (status: number, others = 404): Statuses => ({
  anonymous: 401,
  player: status,
  opponent: others,
  outsider: others,
  suspended: others,
  admin: others,
  deleted: 401,
});

/**
 * A player's action on `player`'s direct challenge to `opponent`, not yet accepted (issue 35):
 * everyone who may not see it is told it does not exist, as its page tells them; the opponent,
 * who sees it, is not one of its players yet.
 */
const onDirectChallenge = (playerStatus: number): Statuses => ({
  ...ownerOnly(playerStatus),
  opponent: 403,
});

const get = (url: string): InjectOptions => ({ method: 'GET', url });
const post = (url: string, payload?: object): InjectOptions => ({
  method: 'POST',
  url,
  ...(payload ? { payload } : {}),
});

export const ROUTE_CASES: Record<string, RouteCase[]> = {
  'GET /metrics': [{ request: () => get('/metrics'), expect: everyone(404) }],
  'GET /api/health': [{ request: () => get('/api/health'), expect: everyone(200) }],
  'GET /api/ready': [{ request: () => get('/api/ready'), expect: everyone(200) }],
  'GET /ws': [{ request: () => get('/ws'), expect: signedIn(101) }],

  // Accounts
  'GET /api/user': [{ request: () => get('/api/user'), expect: signedIn(200) }],
  'POST /api/register': [
    { request: () => post('/api/register', registration()), expect: everyone(201) },
  ],
  'POST /api/login': [
    {
      request: (w) =>
        post('/api/login', { username: w.actor('player').username, password: PASSWORD }),
      expect: everyone(200),
    },
  ],
  'POST /api/logout': [{ request: () => post('/api/logout'), expect: everyone(204) }],

  // Account security (docs/accounts.md#account-security)
  'POST /api/user/password': [
    {
      request: () =>
        post('/api/user/password', { currentPassword: PASSWORD, newPassword: 'a-new-password' }),
      expect: signedIn(200),
    },
  ],
  'POST /api/password-reset': [
    {
      request: (w) => post('/api/password-reset', { username: w.actor('player').username }),
      expect: everyone(202),
    },
  ],
  'POST /api/password-reset/complete': [
    {
      target: 'a token nobody was mailed',
      request: () =>
        post('/api/password-reset/complete', { token: 'x'.repeat(43), newPassword: 'abcdef' }),
      expect: everyone(400),
    },
  ],
  'POST /api/user/verify-email': [
    {
      target: 'a token nobody was mailed',
      request: () => post('/api/user/verify-email', { token: 'x'.repeat(43) }),
      expect: everyone(400),
    },
  ],
  'POST /api/user/verify-email/resend': [
    { request: () => post('/api/user/verify-email/resend'), expect: signedIn(202) },
  ],
  'GET /api/user/sessions': [{ request: () => get('/api/user/sessions'), expect: signedIn(200) }],
  'DELETE /api/user/sessions/:id': [
    {
      request: async (w) => ({
        method: 'DELETE',
        url: `/api/user/sessions/${await w.sessionId('player')}`,
      }),
      expect: ownerOnly(204),
    },
  ],
  'POST /api/user/sessions/revoke-others': [
    { request: () => post('/api/user/sessions/revoke-others'), expect: signedIn(200) },
  ],

  // Two-factor sign-in (docs/accounts.md#account-security). Nobody here has it on or a set-up
  // waiting, and no browser brings a pending sign-in to the second step.
  'POST /api/login/2fa': [
    { request: () => post('/api/login/2fa', { code: '123456' }), expect: everyone(401) },
  ],
  'POST /api/user/2fa/setup': [
    {
      request: () => post('/api/user/2fa/setup', { password: PASSWORD }),
      expect: signedIn(200),
    },
  ],
  'POST /api/user/2fa/enable': [
    {
      request: () => post('/api/user/2fa/enable', { code: '123456' }),
      expect: signedIn(409),
    },
  ],
  'POST /api/user/2fa/disable': [
    {
      request: () => post('/api/user/2fa/disable', { password: PASSWORD, code: '123456' }),
      expect: signedIn(409),
    },
  ],
  'GET /api/transactions': [{ request: () => get('/api/transactions'), expect: signedIn(200) }],

  // The player's own data (docs/responsible-play.md). Each world's players hold money only in their
  // wallets, so each may close; an admin's account is closed by another admin, never from the
  // profile.
  'GET /api/me/export': [{ request: () => get('/api/me/export'), expect: signedIn(200) }],
  'POST /api/me/close': [
    {
      request: () => post('/api/me/close', { password: PASSWORD }),
      expect: { ...signedIn(200), admin: 403 },
    },
  ],
  'GET /api/profile/config': [{ request: () => get('/api/profile/config'), expect: signedIn(200) }],
  'PATCH /api/user': [
    {
      request: () => ({ method: 'PATCH', url: '/api/user', payload: { state: 'NY' } }),
      expect: signedIn(200),
    },
  ],
  'GET /api/responsible-gaming': [
    { request: () => get('/api/responsible-gaming'), expect: signedIn(200) },
  ],
  'PUT /api/responsible-gaming/limits': [
    {
      request: () => ({
        method: 'PUT',
        url: '/api/responsible-gaming/limits',
        payload: { daily: 50, weekly: null },
      }),
      expect: signedIn(200),
    },
  ],
  'POST /api/responsible-gaming/time-out': [
    { request: () => post('/api/responsible-gaming/time-out', { days: 1 }), expect: signedIn(200) },
  ],
  'POST /api/responsible-gaming/self-exclusion': [
    {
      request: () => post('/api/responsible-gaming/self-exclusion', { months: 6 }),
      expect: signedIn(200),
    },
  ],
  'POST /api/user/update-email': [
    {
      request: () => post('/api/user/update-email', { email: 'new@example.com' }),
      expect: signedIn(200),
    },
  ],
  'POST /api/user/upload-license': [
    {
      request: () => ({ method: 'POST', url: '/api/user/upload-license', ...licenseUpload() }),
      expect: signedIn(201),
    },
  ],
  'GET /api/user/verification': [
    { request: () => get('/api/user/verification'), expect: signedIn(200) },
  ],
  'GET /api/voice/config': [{ request: () => get('/api/voice/config'), expect: signedIn(200) }],

  // Challenges
  'GET /api/challenges': [{ request: () => get('/api/challenges'), expect: signedIn(200) }],
  'GET /api/challenges/counts': [
    { request: () => get('/api/challenges/counts'), expect: signedIn(200) },
  ],
  'GET /api/challenges/:id': [
    {
      target: 'an accepted challenge (contact details are hidden, not the challenge)',
      request: async (w) => get(`/api/challenges/${await w.acceptedChallenge()}`),
      expect: signedIn(200),
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) => get(`/api/challenges/${await w.directChallenge()}`),
      expect: { ...signedIn(404), player: 200, opponent: 200, admin: 200 },
    },
  ],
  'POST /api/challenges': [
    {
      request: () => post('/api/challenges', CHALLENGE_BODY),
      expect: { ...signedIn(201), suspended: 403 },
    },
    {
      target: 'a direct challenge to opponent (to themself, opponent is refused)',
      request: (w) =>
        post('/api/challenges', { ...CHALLENGE_BODY, opponent: w.actor('opponent').username }),
      expect: { ...signedIn(201), opponent: 400, suspended: 403 },
    },
  ],
  'POST /api/challenges/:id/decline': [
    {
      target: "player's direct challenge to opponent",
      request: async (w) => post(`/api/challenges/${await w.directChallenge()}/decline`),
      expect: { ...signedIn(404), player: 403, opponent: 200 },
    },
  ],
  'GET /api/players': [
    {
      request: (w) => get(`/api/players?search=${w.actor('opponent').username.slice(0, 4)}`),
      expect: signedIn(200),
    },
  ],
  'POST /api/quick-match': [
    {
      request: () => post('/api/quick-match', CHALLENGE_BODY),
      expect: { ...signedIn(200), suspended: 403 },
    },
  ],
  'POST /api/challenges/:id/accept': [
    {
      target: "player's open challenge",
      request: async (w) => post(`/api/challenges/${await w.openChallenge()}/accept`),
      expect: { ...signedIn(200), player: 400, suspended: 403 },
    },
    {
      target: "player's direct challenge: opponent only",
      request: async (w) => post(`/api/challenges/${await w.directChallenge()}/accept`),
      expect: { ...signedIn(404), player: 400, opponent: 200, suspended: 403 },
    },
  ],
  'POST /api/challenges/:id/cancel': [
    {
      target: "player's open challenge",
      request: async (w) => post(`/api/challenges/${await w.openChallenge()}/cancel`),
      expect: { ...signedIn(403), player: 200 },
    },
    {
      target: 'the accepted challenge of player and opponent: a request to call it off',
      request: async (w) => post(`/api/challenges/${await w.acceptedChallenge()}/cancel`),
      expect: { ...signedIn(403), player: 200, opponent: 200 },
    },
  ],
  'POST /api/challenges/:id/confirm': [
    {
      target: 'a result player submitted, under review',
      request: async (w) => post(`/api/challenges/${await w.completedChallenge()}/confirm`),
      expect: { ...signedIn(403), opponent: 200 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) => post(`/api/challenges/${await w.directChallenge()}/confirm`),
      expect: onDirectChallenge(409),
    },
  ],
  'POST /api/challenges/:id/no-show': [
    {
      // Just accepted: the players are told to wait for the no-show time, everyone else refused.
      target: 'the accepted challenge of player and opponent',
      request: async (w) => post(`/api/challenges/${await w.acceptedChallenge()}/no-show`),
      expect: { ...signedIn(403), player: 409, opponent: 409 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) => post(`/api/challenges/${await w.directChallenge()}/no-show`),
      expect: onDirectChallenge(409),
    },
  ],
  'GET /api/challenges/rules': [
    { request: () => get('/api/challenges/rules'), expect: signedIn(200) },
  ],
  'GET /api/challenges/:id/evidence': [
    {
      target: 'the dispute of player and opponent',
      request: async (w) => get(`/api/challenges/${await w.disputedChallenge()}/evidence`),
      expect: { ...signedIn(403), player: 200, opponent: 200, admin: 200 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) => get(`/api/challenges/${await w.directChallenge()}/evidence`),
      expect: { ...onDirectChallenge(200), admin: 200 },
    },
  ],
  'POST /api/challenges/:id/evidence': [
    {
      target: 'the dispute of player and opponent',
      request: async (w) => ({
        method: 'POST',
        url: `/api/challenges/${await w.disputedChallenge()}/evidence`,
        ...multipartForm({ statement: 'We played 3–1; here is the recording.' }),
      }),
      expect: { ...signedIn(403), player: 201, opponent: 201 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) => ({
        method: 'POST',
        url: `/api/challenges/${await w.directChallenge()}/evidence`,
        ...multipartForm({ statement: 'We played 3–1; here is the recording.' }),
      }),
      expect: onDirectChallenge(409),
    },
  ],
  'POST /api/challenges/:id/submit': [
    {
      target: 'the accepted challenge of player and opponent',
      request: async (w) =>
        post(`/api/challenges/${await w.acceptedChallenge()}/submit`, {
          creatorScore: 1,
          acceptorScore: 2,
          screenshot: 'https://example.com/shot.png',
        }),
      expect: { ...signedIn(403), player: 200, opponent: 200 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) =>
        post(`/api/challenges/${await w.directChallenge()}/submit`, {
          creatorScore: 1,
          acceptorScore: 2,
          screenshot: 'https://example.com/shot.png',
        }),
      expect: onDirectChallenge(409),
    },
  ],
  'POST /api/challenges/:id/dispute': [
    {
      target: 'a result player submitted',
      request: async (w) =>
        post(`/api/challenges/${await w.completedChallenge()}/dispute`, {
          reason: 'That is not the score',
        }),
      expect: { ...signedIn(403), opponent: 200 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) =>
        post(`/api/challenges/${await w.directChallenge()}/dispute`, {
          reason: 'That is not the score',
        }),
      expect: onDirectChallenge(409),
    },
  ],
  'POST /api/challenges/:id/upload-screenshot': [
    {
      target: 'the accepted challenge of player and opponent',
      request: async (w) => ({
        method: 'POST',
        url: `/api/challenges/${await w.acceptedChallenge()}/upload-screenshot`,
        ...screenshotUpload(),
      }),
      expect: { ...signedIn(403), player: 201, opponent: 201 },
    },
    {
      target: "player's direct challenge to opponent: hidden from everyone else",
      request: async (w) => ({
        method: 'POST',
        url: `/api/challenges/${await w.directChallenge()}/upload-screenshot`,
        ...screenshotUpload(),
      }),
      expect: onDirectChallenge(201),
    },
  ],
  'GET /api/uploads/:id': [
    {
      target: "player's match screenshot",
      request: async (w) => get(`/api/uploads/${await w.screenshot()}`),
      expect: { ...signedIn(200), outsider: 404, suspended: 404 },
    },
    {
      target: "player's evidence file on a disputed tournament match (its two players)",
      request: async (w) => get(`/api/uploads/${await w.tournamentEvidenceFile()}`),
      expect: { ...signedIn(404), player: 200, opponent: 200, admin: 200 },
    },
    {
      target: "player's driver's licence (admins only, its owner included)",
      request: async (w) => get(`/api/uploads/${(await w.license()).uploadId}`),
      expect: { ...signedIn(404), admin: 200 },
    },
  ],

  // Reports
  'POST /api/players/:username/report': [
    {
      target: 'opponent (whom opponent may not report)',
      request: (w) =>
        post(`/api/players/${w.actor('opponent').username.toUpperCase()}/report`, {
          reason: 'Rage quit and insulted me',
        }),
      expect: { ...signedIn(201), opponent: 400 },
    },
    {
      target: 'opponent, naming the accepted challenge of player and opponent',
      request: async (w) =>
        post(`/api/players/${w.actor('opponent').username}/report`, {
          reason: 'Would not send the screenshot',
          challengeId: await w.acceptedChallenge(),
        }),
      expect: { ...signedIn(400), player: 201 },
    },
  ],

  // Finding an opponent (docs/challenges.md#finding-an-opponent): every signed-in player may read
  // these.
  'GET /api/players/:username': [
    {
      target: 'opponent, in another case',
      request: (w) => get(`/api/players/${w.actor('opponent').username.toUpperCase()}`),
      expect: signedIn(200),
    },
    {
      target: 'the deleted account, by its old name',
      request: (w) => get(`/api/players/${w.actor('deleted').username}`),
      expect: signedIn(404),
    },
  ],
  'GET /api/leaderboard': [
    {
      request: () => get('/api/leaderboard?period=month&game=Street%20Fighter%206'),
      expect: signedIn(200),
    },
  ],
  'GET /api/games': [{ request: () => get('/api/games?q=street'), expect: signedIn(200) }],

  // Payments (sandbox)
  'GET /api/payments/config': [
    { request: () => get('/api/payments/config'), expect: signedIn(200) },
  ],
  'POST /api/create-payment-intent': [
    {
      request: () => post('/api/create-payment-intent', { amount: 20 }),
      expect: { ...signedIn(200), suspended: 403 },
    },
  ],
  'POST /api/confirm-payment': [
    {
      target: "player's paid card deposit",
      request: async (w) =>
        post('/api/confirm-payment', { paymentIntentId: await w.paidCardIntent(), amount: 20 }),
      expect: ownerOnly(200),
    },
  ],
  'GET /api/crypto-status': [{ request: () => get('/api/crypto-status'), expect: signedIn(200) }],
  'POST /api/create-crypto-payment': [
    {
      request: () => post('/api/create-crypto-payment', { amount: 20 }),
      expect: { ...signedIn(200), suspended: 403 },
    },
  ],
  'GET /api/check-crypto-payment/:paymentId': [
    {
      target: "player's crypto deposit",
      request: async (w) => get(`/api/check-crypto-payment/${await w.cryptoPayment()}`),
      expect: ownerOnly(200),
    },
  ],
  'POST /api/crypto-deposit-notification': [
    {
      request: () => post('/api/crypto-deposit-notification', { amount: 20, currency: 'btc' }),
      expect: { ...signedIn(201), suspended: 403 },
    },
  ],
  'POST /api/sandbox/card/confirm': [
    {
      target: "player's unpaid card deposit",
      request: async (w) =>
        post('/api/sandbox/card/confirm', {
          clientSecret: (await w.unpaidCardIntent()).clientSecret,
          cardNumber: SANDBOX_TEST_CARDS.success,
        }),
      expect: ownerOnly(200),
    },
  ],
  'GET /api/sandbox/crypto/:paymentId': [
    {
      target: "player's crypto deposit",
      request: async (w) => get(`/api/sandbox/crypto/${await w.cryptoPayment()}`),
      expect: ownerOnly(200),
    },
  ],
  'POST /api/sandbox/crypto/:paymentId/simulate': [
    {
      target: "player's crypto deposit",
      request: async (w) =>
        post(`/api/sandbox/crypto/${await w.cryptoPayment()}/simulate`, { status: 'finished' }),
      expect: ownerOnly(200),
    },
  ],
  // Only with real providers configured; a forged call is refused by its signature.
  'POST /api/webhooks/stripe': [
    {
      request: () => ({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
        payload: '{"type":"payment_intent.succeeded"}',
      }),
      expect: everyone(400),
    },
  ],
  'POST /api/webhooks/nowpayments/payouts': [
    {
      request: () => ({
        method: 'POST',
        url: '/api/webhooks/nowpayments/payouts',
        headers: { 'content-type': 'application/json', 'x-nowpayments-sig': 'forged' },
        payload: '{"id":"1","batch_withdrawal_id":"1","status":"FINISHED"}',
      }),
      expect: everyone(400),
    },
  ],
  'POST /api/webhooks/nowpayments': [
    {
      request: () => ({
        method: 'POST',
        url: '/api/webhooks/nowpayments',
        headers: { 'content-type': 'application/json', 'x-nowpayments-sig': 'forged' },
        payload: '{"payment_id":1,"payment_status":"finished"}',
      }),
      expect: everyone(400),
    },
  ],

  // Payouts
  'GET /api/notifications': [{ request: () => get('/api/notifications'), expect: signedIn(200) }],
  'POST /api/notifications/read': [
    { request: () => post('/api/notifications/read', { all: true }), expect: signedIn(200) },
  ],
  'GET /api/payouts': [{ request: () => get('/api/payouts'), expect: signedIn(200) }],
  'GET /api/payouts/options': [
    { request: () => get('/api/payouts/options'), expect: signedIn(200) },
  ],
  'POST /api/payouts': [
    { request: () => post('/api/payouts', PAYOUT_BODY), expect: signedIn(201) },
  ],

  // Admin
  'GET /api/admin/users': [{ request: () => get('/api/admin/users'), expect: adminOnly(200) }],
  'POST /api/admin/users/:id/balance': [
    {
      target: 'player',
      request: (w) => post(`/api/admin/users/${w.actor('player').id}/balance`, { amount: '5' }),
      expect: adminOnly(200),
    },
  ],
  'DELETE /api/admin/users/:id': [
    {
      target: 'outsider',
      request: (w) => ({ method: 'DELETE', url: `/api/admin/users/${w.actor('outsider').id}` }),
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/users/:id/suspend': [
    {
      target: 'outsider',
      request: (w) =>
        post(`/api/admin/users/${w.actor('outsider').id}/suspend`, {
          reason: 'Match fixing under review',
          until: '2099-01-01T00:00:00Z',
        }),
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/users/:id/unsuspend': [
    {
      target: 'outsider, suspended',
      request: async (w) => post(`/api/admin/users/${await w.suspendedOutsider()}/unsuspend`),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/reports': [{ request: () => get('/api/admin/reports'), expect: adminOnly(200) }],
  'POST /api/admin/reports/:id/resolve': [
    {
      target: "player's report about opponent",
      request: async (w) =>
        post(`/api/admin/reports/${await w.report()}/resolve`, {
          action: 'dismiss',
          note: 'Nothing in the match record',
        }),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/ledger-health': [
    { request: () => get('/api/admin/ledger-health'), expect: adminOnly(200) },
  ],
  'GET /api/admin/audit': [{ request: () => get('/api/admin/audit'), expect: adminOnly(200) }],
  'GET /api/admin/tax-report': [
    { request: () => get('/api/admin/tax-report?year=2026'), expect: adminOnly(200) },
  ],
  'GET /api/admin/tax-report.csv': [
    { request: () => get('/api/admin/tax-report.csv?year=2026'), expect: adminOnly(200) },
  ],
  'GET /api/admin/overview': [
    {
      request: () => get('/api/admin/overview?from=2026-11-01&to=2026-11-30'),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/exports/transfers.csv': [
    {
      request: () => get('/api/admin/exports/transfers.csv?from=2026-11-01&to=2026-11-30'),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/exports/payments.csv': [
    {
      request: () => get('/api/admin/exports/payments.csv?from=2026-11-01&to=2026-11-30'),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/exports/payouts.csv': [
    {
      request: () => get('/api/admin/exports/payouts.csv?from=2026-11-01&to=2026-11-30'),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/exports/chargebacks.csv': [
    {
      request: () => get('/api/admin/exports/chargebacks.csv?from=2026-11-01&to=2026-11-30'),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/exports/tax.csv': [
    {
      request: () => get('/api/admin/exports/tax.csv?from=2026-01-01&to=2026-12-31'),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/risk': [{ request: () => get('/api/admin/risk'), expect: adminOnly(200) }],
  'GET /api/admin/players/:id': [
    {
      target: 'player',
      request: (w) => get(`/api/admin/players/${w.actor('player').id}`),
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/players/:id/notes': [
    {
      target: 'player',
      request: (w) =>
        post(`/api/admin/players/${w.actor('player').id}/notes`, {
          body: 'Asked for ID after three deposits in an hour',
        }),
      expect: adminOnly(201),
    },
  ],
  'POST /api/admin/players/:id/links/clear': [
    {
      // Each actor signs in on a browser of its own: no link to clear, for an admin a 404.
      target: 'player and opponent, who share no device',
      request: (w) =>
        post(`/api/admin/players/${w.actor('player').id}/links/clear`, {
          otherUserId: w.actor('opponent').id,
          note: 'brothers, one console',
        }),
      expect: adminOnly(404),
    },
  ],
  'GET /api/admin/chargebacks': [
    { request: () => get('/api/admin/chargebacks'), expect: adminOnly(200) },
  ],
  'POST /api/admin/chargebacks/:id/submit': [
    {
      target: 'a dispute never opened',
      request: () => post('/api/admin/chargebacks/dp_none/submit'),
      expect: adminOnly(404),
    },
  ],
  'GET /api/payouts/limits': [{ request: () => get('/api/payouts/limits'), expect: signedIn(200) }],
  'GET /api/payouts/card-refunds': [
    { request: () => get('/api/payouts/card-refunds'), expect: signedIn(200) },
  ],
  'POST /api/payouts/card-refund': [
    {
      // Nobody in the matrix paid by card: each is told none of their balance can go back.
      target: "the actor's own card money, of which there is none",
      request: () => post('/api/payouts/card-refund', { amount: '5' }),
      expect: signedIn(400),
    },
  ],
  'POST /api/admin/users/:id/money-lock/lift': [
    {
      // No card payment of `player` was disputed: for an admin, nothing to lift.
      target: 'player, whose money is not locked',
      request: (w) => post(`/api/admin/users/${w.actor('player').id}/money-lock/lift`, {}),
      expect: adminOnly(409),
    },
  ],
  // The sandbox's bank (docs/chargebacks.md). Disputing a real payment would lock `player`'s
  // money for the rest of the matrix: these target payments and disputes that do not exist.
  'POST /api/sandbox/card/disputes': [
    {
      target: 'a payment never made',
      request: () => post('/api/sandbox/card/disputes', { paymentIntentId: 'pi_sandbox_none' }),
      expect: adminOnly(404),
    },
  ],
  'POST /api/sandbox/card/early-fraud-warnings': [
    {
      target: 'a payment never made',
      request: () =>
        post('/api/sandbox/card/early-fraud-warnings', { paymentIntentId: 'pi_sandbox_none' }),
      expect: adminOnly(404),
    },
  ],
  'POST /api/sandbox/card/disputes/:id/close': [
    {
      target: 'a dispute never opened',
      request: () =>
        post(`/api/sandbox/card/disputes/dp_sandbox_${'0'.repeat(24)}/close`, { status: 'won' }),
      expect: adminOnly(404),
    },
  ],
  'GET /api/admin/challenges': [
    { request: () => get('/api/admin/challenges'), expect: adminOnly(200) },
  ],
  'GET /api/admin/disputes': [
    { request: () => get('/api/admin/disputes'), expect: adminOnly(200) },
  ],
  // Tournaments (docs/tournaments.md)
  'GET /api/tournaments': [{ request: () => get('/api/tournaments'), expect: signedIn(200) }],
  'GET /api/tournaments/:id': [
    {
      target: 'an open tournament',
      request: async (w) => get(`/api/tournaments/${await w.openTournament()}`),
      expect: signedIn(200),
    },
  ],
  'POST /api/tournaments/:id/join': [
    {
      target: 'an open tournament',
      request: async (w) => post(`/api/tournaments/${await w.openTournament()}/join`),
      expect: { ...signedIn(200), suspended: 403 },
    },
  ],
  'POST /api/tournaments/:id/leave': [
    {
      target: "player's entry in an open tournament",
      request: async (w) => post(`/api/tournaments/${await w.enteredTournament()}/leave`),
      expect: { ...signedIn(409), player: 200 },
    },
  ],
  'POST /api/tournaments/:id/matches/:matchId/submit': [
    {
      target: 'the match of player and opponent',
      request: async (w) => {
        const { id, matchId } = await w.liveMatch();
        return post(`/api/tournaments/${id}/matches/${matchId}/submit`, {
          creatorScore: 1,
          acceptorScore: 2,
          screenshot: 'https://example.com/shot.png',
        });
      },
      expect: { ...signedIn(403), player: 200, opponent: 200 },
    },
  ],
  'POST /api/tournaments/:id/matches/:matchId/confirm': [
    {
      target: 'a result player reported, under review',
      request: async (w) => {
        const { id, matchId } = await w.reportedTournamentMatch();
        return post(`/api/tournaments/${id}/matches/${matchId}/confirm`);
      },
      expect: { ...signedIn(403), opponent: 200 },
    },
  ],
  'POST /api/tournaments/:id/matches/:matchId/dispute': [
    {
      target: 'a result player reported, under review',
      request: async (w) => {
        const { id, matchId } = await w.reportedTournamentMatch();
        return post(`/api/tournaments/${id}/matches/${matchId}/dispute`, {
          reason: 'That is not the score',
        });
      },
      expect: { ...signedIn(403), opponent: 200 },
    },
  ],
  'POST /api/tournaments/:id/matches/:matchId/no-show': [
    {
      // Just begun: the players are told to wait for the no-show time, everyone else refused.
      target: 'the match of player and opponent',
      request: async (w) => {
        const { id, matchId } = await w.liveMatch();
        return post(`/api/tournaments/${id}/matches/${matchId}/no-show`);
      },
      expect: { ...signedIn(403), player: 409, opponent: 409 },
    },
  ],
  'GET /api/tournaments/:id/matches/:matchId/evidence': [
    {
      target: 'the disputed match of player and opponent',
      request: async (w) => {
        const { id, matchId } = await w.disputedTournamentMatch();
        return get(`/api/tournaments/${id}/matches/${matchId}/evidence`);
      },
      expect: { ...signedIn(403), player: 200, opponent: 200, admin: 200 },
    },
  ],
  'POST /api/tournaments/:id/matches/:matchId/evidence': [
    {
      target: 'the disputed match of player and opponent',
      request: async (w) => {
        const { id, matchId } = await w.disputedTournamentMatch();
        return {
          method: 'POST',
          url: `/api/tournaments/${id}/matches/${matchId}/evidence`,
          ...multipartForm({ statement: 'They left after the first round.' }),
        };
      },
      expect: { ...signedIn(403), player: 201, opponent: 201 },
    },
  ],
  'POST /api/admin/tournaments': [
    {
      request: () => post('/api/admin/tournaments', { ...TOURNAMENT_BODY, startsAt: inAnHour() }),
      expect: adminOnly(201),
    },
  ],
  'POST /api/admin/tournaments/:id/cancel': [
    {
      target: 'an open tournament',
      request: async (w) => post(`/api/admin/tournaments/${await w.openTournament()}/cancel`),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/tournament-disputes': [
    { request: () => get('/api/admin/tournament-disputes'), expect: adminOnly(200) },
  ],
  'POST /api/admin/tournaments/:id/matches/:matchId/resolve': [
    {
      target: 'a disputed match of player and opponent',
      request: async (w) => {
        const { id, matchId } = await w.disputedTournamentMatch();
        return post(`/api/admin/tournaments/${id}/matches/${matchId}/resolve`, {
          winnerId: w.actor('opponent').id,
        });
      },
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/disputes/:id/resolve': [
    {
      target: 'a disputed challenge of player and opponent',
      request: async (w) =>
        post(`/api/admin/disputes/${await w.disputedChallenge()}/resolve`, {
          outcome: 'refund',
          note: 'Both screenshots disagree',
        }),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/verifications': [
    { request: () => get('/api/admin/verifications'), expect: adminOnly(200) },
  ],
  'POST /api/admin/verifications/:id/approve': [
    {
      target: "player's pending licence",
      request: async (w) =>
        post(`/api/admin/verifications/${(await w.license()).verificationId}/approve`),
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/verifications/:id/reject': [
    {
      target: "player's pending licence",
      request: async (w) =>
        post(`/api/admin/verifications/${(await w.license()).verificationId}/reject`, {
          note: 'Unreadable',
        }),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/payouts': [{ request: () => get('/api/admin/payouts'), expect: adminOnly(200) }],
  'POST /api/admin/payouts/:id/complete': [
    {
      target: "player's pending payout",
      request: async (w) => post(`/api/admin/payouts/${await w.payout()}/complete`),
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/payouts/:id/fail': [
    {
      target: "player's pending payout",
      request: async (w) =>
        post(`/api/admin/payouts/${await w.payout()}/fail`, { reason: 'Address rejected' }),
      expect: adminOnly(200),
    },
  ],
  'POST /api/admin/payouts/:id/approve': [
    {
      target: "player's payout to an address, waiting for review",
      request: async (w) => post(`/api/admin/payouts/${await w.sendablePayout()}/approve`),
      expect: adminOnly(200),
    },
  ],
  'GET /api/admin/payouts/balances': [
    { request: () => get('/api/admin/payouts/balances'), expect: adminOnly(200) },
  ],
  // Only an admin may end a sandbox withdrawal; one the sender has not sent is refused.
  'POST /api/sandbox/payouts/:id/simulate': [
    {
      target: "player's payout not yet sent",
      request: async (w) =>
        post(`/api/sandbox/payouts/${await w.sendablePayout()}/simulate`, { status: 'finished' }),
      expect: adminOnly(409),
    },
  ],
};

/**
 * The voice socket lives beside Fastify's router (socket.io listens on the raw server), so it is
 * not in the route table; its admission rules are checked here with the same roles.
 */
export const VOICE_EXPECTED: Record<Role, 'connected' | 'refused'> = {
  anonymous: 'refused',
  player: 'connected',
  opponent: 'connected',
  outsider: 'refused',
  suspended: 'refused',
  admin: 'refused',
  deleted: 'refused',
};
