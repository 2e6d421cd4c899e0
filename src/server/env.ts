import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';
import { USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from '#shared/contracts/auth.ts';
import { parseAmount, type Cents } from '#shared/money.ts';
import { PAYOUT_COIN_CODES } from '#shared/payout-coins.ts';
import { DEFAULT_EXCLUDED_STATES, isStateCode, type StateCode } from '#shared/us-states.ts';
import type { ProxyTrust } from './lib/trusted-proxy.ts';

/**
 * Every setting the server reads, parsed once at start-up. Nothing else in the server touches
 * `process.env`: code receives the parsed `Env` object, which tests build with `parseEnv({...})`.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const TRUST_PROXY_MESSAGE =
  'must be false, true (one proxy), the number of proxies in front (1 to 10), or their addresses or CIDR ranges separated by commas';

/** `TRUST_PROXY`: see `ProxyTrust` for what each form means. */
const trustProxy = z.string().transform((text, ctx): ProxyTrust => {
  const value = text.trim().toLowerCase();
  if (['false', 'no', '0'].includes(value)) return { kind: 'none' };
  if (['true', 'yes'].includes(value)) return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 10) return { kind: 'hops', hops };
  } else {
    const addresses = value.split(',').map((entry) => entry.trim());
    try {
      // proxy-addr throws on anything that is not an address, a CIDR range or one of its names.
      if (addresses.every(Boolean)) {
        proxyAddr.compile(addresses);
        return { kind: 'addresses', addresses };
      }
    } catch {
      // Reported below with the other problems.
    }
  }
  ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
  return z.NEVER;
});

/**
 * `EXCLUDED_STATES`: two-letter codes separated by commas, or `none` to refuse no state (an empty
 * variable means unset, as everywhere, and so the default list).
 */
const excludedStates = z.string().transform((text, ctx): StateCode[] => {
  if (text.trim().toLowerCase() === 'none') return [];
  const codes = text
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .filter(Boolean);
  const unknown = codes.filter((code) => !isStateCode(code));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be US state codes separated by commas (AR,AZ,…); not a state: ${unknown.join(', ')}`,
    });
    return z.NEVER;
  }
  return [...new Set(codes as StateCode[])];
});

/** A whole number from `min` to `max`, read from its decimal text. */
const payoutCurrencies = z.string().transform((text, ctx): string[] => {
  const codes = [...new Set(text.split(',').map((entry) => entry.trim().toLowerCase()))].filter(
    Boolean,
  );
  const unknown = codes.filter((code) => !PAYOUT_COIN_CODES.includes(code));
  if (codes.length === 0 || unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be coins separated by commas, of ${PAYOUT_COIN_CODES.join(', ')}${
        unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''
      }`,
    });
    return z.NEVER;
  }
  return codes;
});

function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** A positive amount of dollars with at most two decimals ("2500", "99.50"), as cents. */
const dollarAmount = z.string().transform((text, ctx): Cents => {
  const parsed = parseAmount(text.trim());
  if (!parsed.ok || parsed.cents <= 0n) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive dollar amount, e.g. 2500' });
    return z.NEVER;
  }
  return parsed.cents;
});

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int({ error: 'must be a port number' })
    .min(0, 'must be a port number')
    .max(65_535, 'must be a port number')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  TRUST_PROXY: trustProxy.default({ kind: 'none' }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(5, 'must be 5 to 43200 minutes')
    .max(43_200, 'must be 5 to 43200 minutes')
    .default(720),
  SESSION_MAX_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be 1 to 365 days')
    .max(365, 'must be 1 to 365 days')
    .default(30),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('SkillStake <no-reply@skillstake.local>'),
  ICE_SERVERS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array of ICE servers' });
        return z.NEVER;
      }
    })
    .pipe(
      z.array(
        z.object({
          urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
          username: z.string().optional(),
          credential: z.string().optional(),
        }),
        { error: 'must be a JSON array of ICE servers like [{"urls":"stun:host:3478"}]' },
      ),
    )
    .default([{ urls: 'stun:stun.l.google.com:19302' }]),
  // A name a player could register, or nobody could sign in with it.
  ADMIN_USERNAME: z
    .string()
    .min(USERNAME_MIN)
    .max(USERNAME_MAX)
    .regex(USERNAME_PATTERN, 'must be 3 to 30 letters, digits or underscores')
    .optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_[A-Za-z0-9_]+$/, 'must be a Stripe publishable key (pk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_+/=]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_BASE: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  NOWPAYMENTS_API_KEY: z.string().min(1).optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().min(1).optional(),
  NOWPAYMENTS_API_BASE: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://api.nowpayments.io'),
  /**
   * The NOWPayments account's sign-in and its 2FA app's base32 secret: with them (and the API
   * key) payouts are sent through NOWPayments (docs/payouts.md). Set all three or none.
   */
  NOWPAYMENTS_EMAIL: z
    .email({ error: 'must be the e-mail address of the NOWPayments account' })
    .optional(),
  NOWPAYMENTS_PASSWORD: z.string().min(1).optional(),
  NOWPAYMENTS_2FA_SECRET: z
    .string()
    .regex(/^[A-Z2-7]{16,128}=*$/, "must be the base32 secret of the account's 2FA app")
    .optional(),
  NOWPAYMENTS_PAY_CURRENCY: z
    .string()
    .regex(/^[a-z0-9]{2,20}$/, 'must be a NOWPayments currency code such as btc')
    .default('btc'),
  /**
   * Where a player is sent to pay when a crypto payment cannot be created through the API
   * (the fallback of docs/product.md#calls): for example the operator's NOWPayments payment link.
   */
  CRYPTO_FALLBACK_PAYMENT_URL: z
    .url({ protocol: /^https$/, error: 'must be an https:// URL' })
    .optional(),
  FREE_SITE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  /** Bearer token a Prometheus scraper presents at GET /metrics; unset turns the endpoint off. */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  /**
   * How long a reported result waits for the opponent before its winner is paid
   * (docs/fair-play.md).
   */
  RESULT_REVIEW_HOURS: z.coerce
    .number({ error: 'must be 1 to 168 hours' })
    .int('must be 1 to 168 hours')
    .min(1, 'must be 1 to 168 hours')
    .max(168, 'must be 1 to 168 hours')
    .default(24),
  /** After this long from acceptance, a player may claim that the opponent never showed. */
  NO_SHOW_MINUTES: z.coerce
    .number({ error: 'must be 5 to 1440 minutes' })
    .int('must be 5 to 1440 minutes')
    .min(5, 'must be 5 to 1440 minutes')
    .max(1440, 'must be 5 to 1440 minutes')
    .default(30),
  /** An accepted match with no result and no claim after this long is refunded to both. */
  MATCH_TIME_LIMIT_HOURS: z.coerce
    .number({ error: 'must be 1 to 720 hours' })
    .int('must be 1 to 720 hours')
    .min(1, 'must be 1 to 720 hours')
    .max(720, 'must be 1 to 720 hours')
    .default(24),
  /** How long a tournament match's reported result waits for the opponent (docs/tournaments.md). */
  TOURNAMENT_REVIEW_MINUTES: z.coerce
    .number({ error: 'must be 1 to 1440 minutes' })
    .int('must be 1 to 1440 minutes')
    .min(1, 'must be 1 to 1440 minutes')
    .max(1440, 'must be 1 to 1440 minutes')
    .default(30),
  /**
   * How long a tournament match may go unplayed once both its players are known
   * (docs/tournaments.md, decision 0020): then the worker decides it.
   */
  TOURNAMENT_MATCH_MINUTES: z.coerce
    .number({ error: 'must be 10 to 10080 minutes' })
    .int('must be 10 to 10080 minutes')
    .min(10, 'must be 10 to 10080 minutes')
    .max(10080, 'must be 10 to 10080 minutes')
    .default(60),
  /**
   * Admins must sign in with a second factor (docs/accounts.md#account-security): without it, every
   * admin route answers 403 and the admin page shows the set-up. Turning it off is for closed test
   * deployments only.
   */
  ADMIN_2FA_REQUIRED: booleanFlag.default(true),
  /**
   * Where cash play is refused (docs/responsible-play.md), declared by the player or located by
   * address.
   */
  EXCLUDED_STATES: excludedStates.default([...DEFAULT_EXCLUDED_STATES]),
  /**
   * Locate the client's address in the offline city database on registration, deposits, creating
   * and accepting (docs/responsible-play.md). Off only for development on addresses the database
   * would misplace.
   */
  GEO_CHECK: booleanFlag.default(true),
  /**
   * A payout needs an approved ID verification (docs/responsible-play.md). Off only for closed
   * tests.
   */
  KYC_REQUIRED_FOR_PAYOUT: booleanFlag.default(true),
  /**
   * The most one player's payouts may total in any 24 hours, in dollars (docs/responsible-play.md).
   */
  PAYOUT_DAILY_LIMIT: dollarAmount.default(250_000n),
  /** The coins payouts are offered in, as NOWPayments names them (docs/payouts.md). */
  PAYOUT_CURRENCIES: payoutCurrencies.default(['usdttrc20', 'btc', 'eth', 'ltc']),
  /** The largest payout sent without an admin's look, in dollars (docs/payouts.md). */
  AUTO_PAYOUT_MAX: dollarAmount.default(50_000n),
  /**
   * The net winnings in one calendar year (prizes credited − the stakes of those challenges) at
   * which a player is listed in the admin's tax report, in dollars (docs/responsible-play.md).
   */
  TAX_REPORT_THRESHOLD: dollarAmount.default(200_000n),
  CARD_PAYMENTS_ENABLED: booleanFlag.default(true),
  /**
   * Hours a card deposit is refundable to the card only (besides being played through) before it
   * may leave as a payout (docs/chargebacks.md).
   */
  CARD_CLEARING_HOURS: wholeNumber(0, 24 * 90).default(72),
  CRYPTO_PAYMENTS_ENABLED: booleanFlag.default(true),
  /** How many days back the admin's RISK tab looks (docs/operator-tools.md). */
  RISK_WINDOW_DAYS: wholeNumber(1, 365).default(30),
  /** Accounts on one address or one browser in the window that the RISK tab lists. */
  RISK_SHARED_ACCOUNTS_MIN: wholeNumber(2, 100).default(2),
  /** Matches two players must have finished against each other before their pair is judged. */
  RISK_PAIR_MATCHES_MIN: wholeNumber(2, 1000).default(5),
  /** The share of a pair's matches, in percent, that one side must win for the pair to show. */
  RISK_PAIR_WIN_PERCENT: wholeNumber(50, 100).default(90),
  /** A player shows when withdrawals reach this percent of deposits in the window… */
  RISK_WITHDRAWN_PERCENT: wholeNumber(1, 100).default(80),
  /** …while their stakes in accepted matches stayed under this percent of those deposits. */
  RISK_PLAY_PERCENT: wholeNumber(0, 1000).default(25),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses the environment, or throws an `EnvError` that lists every bad variable at once. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "unset": `.env` files and compose files often write `NAME=`.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(present);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  // Checked apart from the schema so that it is reported together with every other problem.
  if (Boolean(present.ADMIN_USERNAME) !== Boolean(present.ADMIN_PASSWORD)) {
    problems.push('ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD must be set together');
  }
  const payoutSignIn = [
    present.NOWPAYMENTS_EMAIL,
    present.NOWPAYMENTS_PASSWORD,
    present.NOWPAYMENTS_2FA_SECRET,
  ].filter(Boolean).length;
  if (payoutSignIn !== 0 && payoutSignIn !== 3) {
    problems.push(
      'NOWPAYMENTS_2FA_SECRET: NOWPAYMENTS_EMAIL, NOWPAYMENTS_PASSWORD and NOWPAYMENTS_2FA_SECRET must be set together',
    );
  }
  // Stripe Elements needs the publishable key of the same account as the secret key.
  if (Boolean(present.STRIPE_SECRET_KEY) !== Boolean(present.STRIPE_PUBLISHABLE_KEY)) {
    problems.push(
      'STRIPE_PUBLISHABLE_KEY: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
    );
  }
  // A tournament match's time limit must leave room for a no-show claim, which may be made only
  // NO_SHOW_MINUTES after the match began: otherwise the limit decides first.
  if (result.success && result.data.TOURNAMENT_MATCH_MINUTES <= result.data.NO_SHOW_MINUTES) {
    problems.push('TOURNAMENT_MATCH_MINUTES: must be more than NO_SHOW_MINUTES');
  }
  if (!result.success || problems.length > 0) throw new EnvError(problems);
  return result.data;
}
