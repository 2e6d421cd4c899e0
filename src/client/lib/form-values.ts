/**
 * Reads a number field for a zod number schema. An empty box is not a zero: it becomes NaN, which
 * the schema refuses with its own words ("must be a whole number") rather than a silent 0.
 */
export function toNumberOrNaN(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return Number.NaN;
  return Number(value);
}
