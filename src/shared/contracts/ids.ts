import { z } from '../validation.ts';

/**
 * The ids a request may carry, bounded to what the database can hold: a value past them is
 * refused as bad input instead of reaching PostgreSQL, which would reject it with an error of its
 * own (an out-of-range integer) that the server could only answer with a 500.
 */

/** The largest value of PostgreSQL's `integer`: most tables' ids (users, challenges, payouts…). */
export const INTEGER_ID_MAX = 2_147_483_647;
/** The largest `bigint` id a JavaScript number holds exactly (notifications, audit entries…). */
export const BIGINT_ID_MAX = Number.MAX_SAFE_INTEGER;

type IdMax = typeof INTEGER_ID_MAX | typeof BIGINT_ID_MAX;

/**
 * An id in a path or a query string, where it arrives as text: a positive whole number up to
 * `max`. Every way it can be wrong answers `message`, the same words as for an id that names
 * nothing ("Challenge not found"), so a malformed id and a missing one read alike.
 */
export function idFromText(message: string, max: IdMax = INTEGER_ID_MAX) {
  return z.coerce.number({ error: message }).int(message).positive(message).max(max, message);
}

/** An id in a JSON body, where it must already be a number. */
export function idFromJson(message: string, max: IdMax = INTEGER_ID_MAX) {
  return z.number({ error: message }).int(message).positive(message).max(max, message);
}

/** `{ id }` path params for the resource `message` names when it is not found. */
export function idParamsSchema(message: string, max: IdMax = INTEGER_ID_MAX) {
  return z.object({ id: idFromText(message, max) });
}

/** A keyset page's `before`: only rows with a smaller id, so the last id of a page gives the next. */
export function beforeCursor(max: IdMax = INTEGER_ID_MAX) {
  return z.coerce.number().int().positive().max(max).optional();
}
