import { sql, type SQL } from 'drizzle-orm';

/** The UTC day of a timestamp column, as text (`2026-11-28`): what daily series group by. */
export const utcDay = (column: SQL): SQL =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** A timestamp column as UTC ISO text, so every row reads the same whatever the session zone. */
export const utcIso = (column: SQL): SQL =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
