import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { RESET_TOKEN_MINUTES, VERIFY_TOKEN_HOURS } from '#shared/contracts/account-security.ts';
import type { Executor } from '../../db/client.ts';
import { authTokens, type AuthTokenPurpose } from '../../db/schema/account-security.ts';
import { hashToken } from './sessions.ts';

/** How long each kind of mailed link works (docs/accounts.md#account-security). */
export const LINK_LIFETIME_MS: Record<AuthTokenPurpose, number> = {
  password_reset: RESET_TOKEN_MINUTES * 60_000,
  email_verification: VERIFY_TOKEN_HOURS * 60 * 60_000,
};

/**
 * Makes the token of a mailed link for `email`: 256 random bits, of which only the SHA-256 is
 * stored, so a copy of the database opens no account.
 */
export async function issueLink(
  db: Executor,
  link: { userId: number; purpose: AuthTokenPurpose; email: string },
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(authTokens).values({
    tokenHash: hashToken(token),
    userId: link.userId,
    purpose: link.purpose,
    email: link.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[link.purpose]),
  });
  return token;
}

/**
 * Uses a link's token up: one statement marks it used only if it is unused and unexpired, so two
 * clicks racing on one link cannot both succeed. Null for an unknown, used or expired token.
 */
export async function redeemLink(
  db: Executor,
  purpose: AuthTokenPurpose,
  token: string,
  now: Date,
): Promise<{ userId: number; email: string } | null> {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(token)),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning({ userId: authTokens.userId, email: authTokens.email });
  return row ?? null;
}

/** Voids every unused link of one kind for a user: a new password makes older reset links void. */
export async function voidLinks(
  db: Executor,
  userId: number,
  purpose: AuthTokenPurpose,
  now: Date,
): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.userId, userId),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.usedAt),
      ),
    );
}
