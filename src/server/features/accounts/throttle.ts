import { AppError } from '../../errors.ts';
import type { RateCheck } from '../../lib/rate-limiter.ts';

/** The 429 of a throttled request: "Too many <what>. Please try again in 5 minutes." */
export function tooManyAttempts(check: RateCheck, what: string): AppError {
  const minutes = Math.ceil(check.retryAfterSeconds / 60);
  return new AppError(
    'RATE_LIMITED',
    `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retryAfter: check.retryAfterSeconds },
  );
}
