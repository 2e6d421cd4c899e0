import { hash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import {
  RECOVERY_CODE_COUNT,
  SECOND_STEP_MINUTES,
  SECOND_STEP_TRIES,
  type TwoFactorSetup,
} from '#shared/contracts/account-security.ts';
import type { Executor } from '../../db/client.ts';
import { pendingSignIns, recoveryCodes } from '../../db/schema/account-security.ts';
import { users, type User } from '../../db/schema/users.ts';
import { enqueueMail } from '../mail/index.ts';
import { hasVerifiedEmail } from './public-user.ts';
import { hashToken } from './sessions.ts';

/**
 * Two-factor sign-in (docs/accounts.md#account-security): RFC 6238 codes from the player's
 * authenticator app, and ten single-use recovery codes for the day the phone is lost.
 */

/** What every authenticator app assumes when the URI says nothing else. */
const TOTP_SETTINGS = { issuer: 'SkillStake', algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** One step either way: a phone clock 30 s off, or a code typed as it rolled over, still works. */
const TOTP_WINDOW = 1;
const TOTP_SECRET_BYTES = 20;

/** The cookie that carries the password step of a two-factor sign-in to its second step. */
export const PENDING_SIGN_IN_COOKIE = 'sid2fa';
/** Sent to the login routes only: the second step is the one place that reads it. */
export const PENDING_SIGN_IN_PATH = '/api/login';
export const SECOND_STEP_MS = SECOND_STEP_MINUTES * 60_000;

function totpOf(user: Pick<User, 'username'>, secret: string): TOTP {
  return new TOTP({ ...TOTP_SETTINGS, label: user.username, secret: Secret.fromBase32(secret) });
}

export function newTotpSecret(): string {
  return new Secret({ size: TOTP_SECRET_BYTES }).base32;
}

/** The secret for typing in by hand, its `otpauth://` URI and that URI as an SVG QR code. */
export async function setupDetails(
  user: Pick<User, 'username'>,
  secret: string,
): Promise<TwoFactorSetup> {
  const otpauthUrl = totpOf(user, secret).toString();
  // Drawn here rather than by a third-party service: the secret must never leave the server
  // except to the player's own browser.
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M' });
  return {
    secret,
    otpauthUrl,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/** Spaces and dashes are how people copy codes; neither is part of one. */
const normalizeCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/** The time step `code` belongs to, within the window around `now`; null when it is not one. */
export function totpStepOf(
  user: Pick<User, 'username'>,
  secret: string,
  code: string,
  now: Date,
): number | null {
  const token = normalizeCode(code);
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(user, secret);
  const timestamp = now.getTime();
  const delta = totp.validate({ token, timestamp, window: TOTP_WINDOW });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

/**
 * Records `step` as the last one accepted for the user, if it is later than the last: a code
 * works once, and never after a later one. One conditional UPDATE, so that two requests with the
 * same code cannot both pass, whichever instance they reach.
 */
async function claimTotpStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return claimed.length === 1;
}

// 50 random bits in base32 (no 0/1/8/9 to mistake for letters), read out as xxxxx-xxxxx.
const RECOVERY_CODE_BYTES = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function newRecoveryCode(): string {
  const letters = [...randomBytes(RECOVERY_CODE_BYTES)].map((byte) => BASE32[byte % 32]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/**
 * A recovery code is random, not chosen by a person, so a fast hash is enough: nobody can guess
 * one from a dictionary, online guessing is held to a few tries per password step, and whoever
 * could read these hashes could read the TOTP secret beside them too. The user id in the input
 * keeps one guess from being tried against every account's codes at once.
 */
function recoveryCodeHash(userId: number, code: string): string {
  return hash('sha256', `${userId}:${normalizeCode(code)}`, 'hex');
}

/** Replaces the user's recovery codes with ten new ones and answers them, the only time. */
export async function issueRecoveryCodes(db: Executor, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(userId, code) })));
  return codes;
}

/** Marks an unused recovery code used; true only for the one request that did. */
async function useRecoveryCode(
  db: Executor,
  userId: number,
  code: string,
  now: Date,
): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, recoveryCodeHash(userId, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ userId: recoveryCodes.userId });
  return used.length === 1;
}

/**
 * Whether `code` proves the second factor of a user whose two-factor sign-in is on: a current
 * TOTP code not used before, or an unused recovery code. Either is spent by this call.
 */
export async function spendSecondFactor(
  db: Executor,
  user: User,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!user.totpSecret) return false;
  const step = totpStepOf(user, user.totpSecret, code, now);
  if (step !== null) return claimTotpStep(db, user.id, step);
  return useRecoveryCode(db, user.id, code, now);
}

/**
 * Turns two-factor sign-in on with the secret being set up, if `code` is a current code of it.
 * The secret is compared too, so a set-up restarted in another tab meanwhile is not enabled with
 * the old one. Answers the user as it now is, or null when the code does not match.
 */
export async function enableTwoFactor(
  db: Executor,
  user: User,
  code: string,
  now: Date,
): Promise<User | null> {
  const secret = user.totpPendingSecret;
  if (!secret) return null;
  const step = totpStepOf(user, secret, code, now);
  if (step === null) return null;
  const [enabled] = await db
    .update(users)
    .set({ totpSecret: secret, totpPendingSecret: null, totpLastStep: step })
    .where(
      and(
        eq(users.id, user.id),
        isNull(users.totpSecret),
        eq(users.totpPendingSecret, secret),
        or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
      ),
    )
    .returning();
  return enabled ?? null;
}

/** Everything two-factor of one account, gone: when it is turned off, and at deletion. */
export async function eraseTwoFactor(db: Executor, userId: number): Promise<User | undefined> {
  const [user] = await db
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
    .where(eq(users.id, userId))
    .returning();
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(pendingSignIns).where(eq(pendingSignIns.userId, userId));
  return user;
}

/**
 * Tells the player their sign-in changed, if their address is proven: a mail to a stranger is
 * worse.
 */
export async function mailTwoFactorChange(
  db: Executor,
  user: User,
  change: 'on' | 'off',
  now: Date,
): Promise<void> {
  if (!hasVerifiedEmail(user)) return;
  await enqueueMail(db, [
    {
      dedupeKey: `two-factor-${change}:${user.id}:${now.getTime()}`,
      recipient: user.email,
      subject:
        change === 'on' ? 'Two-factor sign-in is on' : 'Two-factor sign-in has been turned off',
      body:
        change === 'on'
          ? `Hi ${user.username}, two-factor sign-in is now on for your SkillStake account: ` +
            'each sign-in asks for a code from your authenticator app. Keep your recovery ' +
            'codes somewhere safe. If this was not you, reset your password and contact us.'
          : `Hi ${user.username}, two-factor sign-in was turned off for your SkillStake ` +
            'account: a password alone now signs in. If this was not you, reset your password, ' +
            'turn two-factor sign-in on again and contact us.',
      metadata: { userId: user.id },
    },
  ]);
}

/** Starts the wait for a code after a right password; answers the token for the cookie. */
export async function createPendingSignIn(
  db: Executor,
  userId: number,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // The player's own abandoned attempts are swept here; nothing else reads them.
  await db
    .delete(pendingSignIns)
    .where(and(eq(pendingSignIns.userId, userId), lte(pendingSignIns.expiresAt, now)));
  await db.insert(pendingSignIns).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + SECOND_STEP_MS),
  });
  return token;
}

/**
 * Counts one try of the pending sign-in behind `token` and answers its user id and how many
 * tries it has now had; null when there is none, it has expired or its tries are used up (then
 * it is deleted). The count is one conditional UPDATE, so parallel tries cannot share one count.
 */
export async function tryPendingSignIn(
  db: Executor,
  token: string,
  now: Date,
): Promise<{ tokenHash: string; userId: number; attempts: number } | null> {
  const tokenHash = hashToken(token);
  const [pending] = await db
    .update(pendingSignIns)
    .set({ attempts: sql`${pendingSignIns.attempts} + 1` })
    .where(
      and(
        eq(pendingSignIns.tokenHash, tokenHash),
        gt(pendingSignIns.expiresAt, now),
        lt(pendingSignIns.attempts, SECOND_STEP_TRIES),
      ),
    )
    .returning({ userId: pendingSignIns.userId, attempts: pendingSignIns.attempts });
  if (!pending) {
    await endPendingSignIn(db, tokenHash);
    return null;
  }
  return { tokenHash, ...pending };
}

/** Ends a pending sign-in; true only for the one caller that ended it. */
export async function endPendingSignIn(db: Executor, tokenHash: string): Promise<boolean> {
  const ended = await db
    .delete(pendingSignIns)
    .where(eq(pendingSignIns.tokenHash, tokenHash))
    .returning({ userId: pendingSignIns.userId });
  return ended.length === 1;
}
