import type { Executor } from '../../db/client.ts';
import { enqueueMail } from '../mail/index.ts';
import { issueLink } from './mailed-links.ts';
import { verificationMail } from './security-mail.ts';

/**
 * Queues the mail that proves `email` belongs to the player (docs/accounts.md#account-security),
 * inside the caller's transaction; the caller wakes the mail worker once it has committed.
 */
export async function queueVerificationMail(
  db: Executor,
  linkBase: string,
  user: { id: number; username: string },
  email: string,
  now: Date,
): Promise<void> {
  const token = await issueLink(db, { userId: user.id, purpose: 'email_verification', email }, now);
  const url = `${linkBase}/verify-email?token=${encodeURIComponent(token)}`;
  await enqueueMail(db, [verificationMail({ username: user.username, email }, url, token)]);
}
