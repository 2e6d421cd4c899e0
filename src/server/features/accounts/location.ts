import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { isStateCode, LOCATION_MESSAGES, stateName, type StateCode } from '#shared/us-states.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import type { Place } from '../../lib/geo-locator.ts';
import { STANDING_COLUMNS, type StandingColumns } from './standing.ts';

/**
 * The state a player declared (null when they never gave one) and their standing, as the
 * database holds them now, in one read.
 */
async function readCashPlayer(
  db: Executor,
  userId: number,
): Promise<{ state: StateCode | null; standing: StandingColumns }> {
  const [row] = await db
    .select({ state: users.state, ...STANDING_COLUMNS })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new Error(`user ${userId} has a session but no row`);
  const { state, ...standing } = row;
  return { state: state !== null && isStateCode(state) ? state : null, standing };
}

function refusedIn(code: StateCode, field: string | undefined): AppError {
  const message = LOCATION_MESSAGES.notAvailableIn(stateName(code));
  return new AppError(
    'LOCATION_NOT_ALLOWED',
    message,
    field ? { fields: { [field]: message } } : {},
  );
}

/**
 * Refuses cash play (registration, deposits, creating, accepting) where it is not allowed
 * (docs/responsible-play.md): a declared state in EXCLUDED_STATES, or a client address the city
 * database puts outside the United States or in an excluded state. Private, loopback and unknown
 * addresses leave the decision to the declared state. `declaredField` names the form field that
 * gave the state, so a refusal of it shows there. Answers the place found, for the caller to
 * record.
 */
export async function requirePlayableLocation(
  ctx: AppContext,
  request: FastifyRequest,
  declared: StateCode | null,
  declaredField?: string,
): Promise<Place | null> {
  const excluded = ctx.env.EXCLUDED_STATES;
  if (declared !== null && excluded.includes(declared)) throw refusedIn(declared, declaredField);
  const place = await ctx.geo.locate(request.ip);
  if (!place) return null;
  if (place.country !== 'US') {
    throw new AppError('LOCATION_NOT_ALLOWED', LOCATION_MESSAGES.outsideUnitedStates);
  }
  if (place.state !== null && excluded.includes(place.state))
    throw refusedIn(place.state, undefined);
  return place;
}

/**
 * The same rule for a signed-in player, whose declared state is read afresh. Their standing is
 * read with it and answered, for the cash-play check that follows to judge without a read of its
 * own (`requireCashPlayAllowed`'s `justRead`).
 */
export async function requirePlayerLocation(
  ctx: AppContext,
  request: FastifyRequest,
  userId: number,
): Promise<StandingColumns> {
  const { state, standing } = await readCashPlayer(ctx.db, userId);
  await requirePlayableLocation(ctx, request, state);
  return standing;
}
